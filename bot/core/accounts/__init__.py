"""Each chat user's upstream session, by job:

- ``accounts``: the one door the dialogs use: login, logout, calls made with a fresh token;
- ``logins``: login throttling, each attempt reserved before the call and settled after it;
- ``sessions``: the stored sessions at this upstream, and what dialogs may see of them;
- ``refresh``: one refresh at a time per session, across tasks and replicas;
- ``catalog``: the tones and sizes on offer to a user, asked with their token;
- ``welcome``: what a user is told once logged in, wherever the password was typed.
"""

from bot.core.accounts.accounts import Accounts
from bot.core.accounts.logins import LoginLimits
from bot.core.accounts.sessions import SignedIn, masked_email

__all__ = ["Accounts", "LoginLimits", "SignedIn", "masked_email"]
