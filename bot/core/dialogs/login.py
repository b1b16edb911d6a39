"""/giris and /cikis: log in with e-mail and password (never stored), and log out."""

from __future__ import annotations

from bot.api import LoginInvalid, LoginRejected
from bot.core.errors import LoginThrottled
from bot.core.events import Command, LoginForm, Text
from bot.core.forms import looks_like_email
from bot.core.screens import Screen
from bot.core.states import Awaiting, JobStatus
from bot.core.turn import Turn, text_screen
from storage import drafts, jobs

__all__ = [
    "email_entered",
    "log_out",
    "login_submitted",
    "password_entered",
    "start_login",
]


async def start_login(turn: Turn, command: Command) -> None:
    """Ask for the e-mail (or take e-mail and password from the command) in a private chat."""
    email, _, password = command.args.strip().partition(" ")
    if password:
        # The command carries a password: it must not stay in the chat, private or not.
        await turn.delete(command.message_id)
    if not turn.origin.private:
        turn.say(turn.texts.login_private_only)
        return
    if email and password:
        await _log_in(turn, email, password.strip())
    elif email:
        await _take_email(turn, email)
    else:
        await turn.expect(Awaiting.EMAIL)
        turn.say(turn.texts.ask_email)


async def email_entered(turn: Turn, text: Text) -> None:
    """Take the e-mail and ask for the password."""
    await _take_email(turn, text.text.strip())


async def _take_email(turn: Turn, email: str) -> None:
    if not looks_like_email(email):
        await turn.expect(Awaiting.EMAIL)
        turn.say(turn.texts.bad_email)
        return
    await turn.expect(Awaiting.PASSWORD, context=email)
    texts = turn.texts
    ask = texts.ask_password if turn.origin.deletes_messages else texts.ask_password_unseen
    turn.send(Screen(text_screen(ask).blocks, secret_input=True))


async def password_entered(turn: Turn, text: Text) -> None:
    """Delete the password message at once, then log in with it (in a private chat only)."""
    await turn.delete(text.message_id)
    email = turn.user.awaiting_context or ""
    await turn.expect(None)
    if not turn.origin.private:
        # Awaited in a private chat but typed in a group: members may have read it.
        turn.say(turn.texts.login_private_only)
        return
    await _log_in(turn, email, text.text.strip())


async def login_submitted(turn: Turn, form: LoginForm) -> None:
    """Log in with the fields of a login form."""
    await turn.expect(None)
    await _log_in(turn, form.email.strip(), form.password)


async def _log_in(turn: Turn, email: str, password: str) -> None:
    texts = turn.texts
    try:
        await turn.services.accounts.login(turn.user_id, email, password)
    except LoginRejected:
        turn.say(texts.login_rejected)
        return
    except LoginInvalid as err:
        turn.say(texts.login_invalid.format(reason=str(err)))
        return
    except LoginThrottled:
        turn.say(texts.login_throttled)
        return
    balance = await turn.upstream(turn.services.api.balance)
    turn.say(texts.login_ok.format(balance=texts.money(balance)))
    waiting = await turn.store(
        lambda s: jobs.jobs_of_user(
            s, user_id=turn.user_id, statuses=(JobStatus.PENDING, JobStatus.FINISHED), limit=1
        )
    )
    if waiting:
        turn.say(texts.deliver_after_login)


async def log_out(turn: Turn, command: Command) -> None:
    """Forget the user's tokens and any order in progress."""
    await turn.store(lambda s: drafts.cancel_open_drafts(s, user_id=turn.user_id))
    had_session = await turn.services.accounts.logout(turn.user_id)
    turn.say(turn.texts.logout_done if had_session else turn.texts.logout_nothing)
