"""/giris and /cikis: log in with e-mail and password (never stored), and log out."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.api import LoginInvalid, LoginRejected
from bot.core.accounts import SignedIn
from bot.core.accounts.welcome import articles_waiting, welcome
from bot.core.conversation.actions import SwitchAccount
from bot.core.conversation.events import Command, LoginForm, Press, Text
from bot.core.conversation.forms import looks_like_email
from bot.core.conversation.inputs import one_sentence, printable, split_credentials
from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Button, Screen
from bot.core.errors import LoginThrottled
from bot.core.turn import Turn, text_screen
from storage import drafts
from storage.states import Awaiting

__all__ = [
    "StopAtLogout",
    "email_entered",
    "log_out",
    "login_submitted",
    "password_entered",
    "start_login",
    "stop_at_logout",
    "switch_chosen",
]

# What else a logout stops for the user (their plans pause), with the lines that name it.
StopAtLogout = Callable[[Turn], Awaitable[list[Block]]]
# Filled by the wiring, so this dialog names none of the packages above it.
_STOPPED_AT_LOGOUT: list[StopAtLogout] = []


def stop_at_logout(stops: Sequence[StopAtLogout]) -> None:
    """Have /cikis stop these too, in this order; the wiring does this before the first turn."""
    _STOPPED_AT_LOGOUT[:] = stops


async def start_login(turn: Turn, command: Command) -> None:
    """Ask for the e-mail (or take e-mail and password from the command) in a private chat.

    Logged in already, the user is asked first whether to switch accounts; credentials in the
    command are that answer, since the password cannot be kept for a question.
    """
    email, password = split_credentials(command.args)
    if password:
        # The command carries a password: it must not stay in the chat, private or not.
        await turn.delete(command.message_id)
    if not turn.origin.private:
        turn.say(turn.texts.login_private_only)
        return
    if not turn.services.platforms[turn.origin.user.platform].login_in_chat:
        await _send_link(turn)
        return
    if password:
        await _log_in(turn, email, password)
        return
    signed_in = await turn.services.accounts.signed_in(turn.user_id)
    if signed_in is not None:
        _ask_to_switch(turn, signed_in)
    elif email:
        await _take_email(turn, email)
    else:
        await _ask_email(turn)


async def _send_link(turn: Turn) -> None:
    """Answer a one-time link to the login page, where a password typed here would stay."""
    words = turn.texts.login_page
    links = turn.services.links
    if links is None:
        turn.say(words.unavailable)
        return
    url = await links.issue(turn.user_id, turn.origin.chat)
    turn.say(words.link, url, buttons=((Button(turn.texts.button_inline_login, "", url=url),),))


def _ask_to_switch(turn: Turn, signed_in: SignedIn) -> None:
    texts = turn.texts
    account = signed_in.account or "?"
    buttons = (
        Button(texts.button_switch_account, SwitchAccount(turn.user_id, 1).encode()),
        Button(texts.button_keep_account, SwitchAccount(turn.user_id, 0).encode()),
    )
    turn.send(
        Screen(text_screen(texts.already_logged_in.format(account=account)).blocks, (buttons,))
    )


async def switch_chosen(turn: Turn, action: SwitchAccount, press: Press) -> None:
    """Ask for the other account's e-mail, or keep the one logged in."""
    if action.switch and turn.origin.private:
        await _ask_email(turn, press.message_id)
        return
    signed_in = await turn.services.accounts.signed_in(turn.user_id)
    account = signed_in.account if signed_in and signed_in.account else "?"
    turn.replace(press.message_id, text_screen(turn.texts.account_kept.format(account=account)))


async def _ask_email(turn: Turn, message_id: str | None = None) -> None:
    await turn.expect(Awaiting.EMAIL)
    turn.replace(message_id, text_screen(turn.texts.ask_email))


async def email_entered(turn: Turn, text: Text) -> None:
    """Take the e-mail and ask for the password; an e-mail and a password log in at once."""
    email, password = split_credentials(text.text)
    if password:
        await turn.delete(text.message_id)
        await turn.expect(None)
        await _log_in(turn, email, password)
        return
    await _take_email(turn, email)


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
    if not turn.origin.private:
        # Awaited in a private chat but typed in a group: members may have read it.
        await turn.expect(None)
        turn.say(turn.texts.login_private_only)
        return
    password = text.text.strip()
    if not password:
        turn.send(Screen(text_screen(turn.texts.empty_password).blocks, secret_input=True))
        return
    email = turn.user.awaiting_context or ""
    await turn.expect(None)
    await _log_in(turn, email, password)


async def login_submitted(turn: Turn, form: LoginForm) -> None:
    """Log in with the fields of a login form."""
    await turn.expect(None)
    await _log_in(turn, form.email.strip(), form.password)


async def _log_in(turn: Turn, email: str, password: str) -> None:
    texts = turn.texts
    if not looks_like_email(email):
        await turn.expect(Awaiting.EMAIL)
        turn.say(texts.bad_email)
        return
    if printable(password) != password:
        # No account has such a password, and a lone surrogate cannot even be sent.
        turn.say(texts.login_rejected)
        return
    try:
        await turn.services.accounts.login(turn.user_id, email, password)
    except LoginInvalid as err:
        reason = one_sentence(err.reason or "")
        turn.say(texts.login_invalid.format(reason=reason) if reason else texts.login_rejected)
        return
    except LoginRejected:
        turn.say(texts.login_rejected)
        return
    except LoginThrottled:
        turn.say(texts.login_throttled)
        return
    balance = await turn.upstream(turn.services.api.balance)
    for line in welcome(texts, balance, await articles_waiting(turn.services.db, turn.user_id)):
        turn.say(line)


async def log_out(turn: Turn, command: Command) -> None:
    """Forget the user's tokens and any order in progress, and stop what stops with them (the
    plans pause, named)."""
    await turn.store(lambda s: drafts.cancel_open_drafts(s, user_id=turn.user_id))
    had_session = await turn.services.accounts.logout(turn.user_id)
    stopped = [line for stop in _STOPPED_AT_LOGOUT for line in await stop(turn)]
    turn.say(turn.texts.logout_done if had_session else turn.texts.logout_nothing, *stopped)
