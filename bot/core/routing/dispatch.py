"""A turn's event to the handler its table names (``bot.core.routing.routes``), and a known failure
to a plain message."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

from bot.api import ArticleApiError, RateLimited, ServiceUnavailable, TokenRejected
from bot.core.conversation.action_data import OwnedAction
from bot.core.conversation.events import (
    Command,
    Event,
    LoginForm,
    OrderForm,
    Press,
    SiteForm,
    Text,
    Unsupported,
    Upload,
)
from bot.core.dialogs import login, order, sites
from bot.core.errors import DraftClosed, LoginThrottled, NotLoggedIn, SessionExpired
from bot.core.routing.routes import COMMANDS, REPLIES, entry_of, parse_action
from bot.core.turn import Turn
from storage.states import Awaiting

__all__ = ["after_answer", "answering", "dispatch"]

log = logging.getLogger(__name__)
T = TypeVar("T")


async def after_answer(turn: Turn) -> None:
    """Do the work a turn left for after its answer; a failure there is logged, not shown."""
    for work in turn.later:
        try:
            await work()
        # The answer is out already: what follows it must not turn into an error message.
        except Exception:
            log.exception("after answering chat user %s", turn.user_id)


async def answering(turn: Turn, what: str, work: Awaitable[T]) -> T | None:
    """Run a dialog's work; a known failure becomes a plain message, any other is logged."""
    try:
        return await work
    except DraftClosed:
        turn.notice(turn.texts.stale_button)
    except SessionExpired:
        turn.say(turn.texts.session_expired)
    except (NotLoggedIn, TokenRejected):
        turn.say(turn.texts.need_login)
    except LoginThrottled:
        turn.say(turn.texts.login_throttled)
    except RateLimited:
        turn.say(turn.texts.service_busy)
    except ServiceUnavailable:
        turn.say(turn.texts.service_down)
    except ArticleApiError as err:
        log.warning("upstream answered %s: %s", type(err).__name__, err)
        turn.say(turn.texts.service_confused)
    except Exception:
        # The one boundary of every dialog: the effects so far (a password's deletion among
        # them) must still be carried out, and the user told, whatever went wrong.
        log.exception("%s of chat user %s failed", what, turn.user_id)
        turn.say(turn.texts.something_broke)
    return None


async def dispatch(turn: Turn, event: Event) -> None:
    """Answer one event through its handler."""
    match event:
        case Command():
            await _command(turn, event)
        case Text():
            awaited = turn.user.awaiting
            reply = REPLIES.get(awaited) if awaited is not None else None
            if reply is None:
                turn.say(turn.texts.unknown_input)
                return
            await reply(turn, event)
        case Press():
            await _pressed(turn, event)
        case LoginForm():
            await login.login_submitted(turn, event)
        case OrderForm():
            await order.form_submitted(turn, event)
        case SiteForm():
            await sites.site_form_submitted(turn, event)
        case Upload():
            await order.file_sent(turn, event)
        case Unsupported():
            turn.say(turn.texts.unknown_input)


async def _command(turn: Turn, command: Command) -> None:
    if turn.user.awaiting in (Awaiting.PASSWORD, Awaiting.SITE_PASSWORD):
        # It may be the password itself, typed with a leading slash.
        await turn.delete(command.message_id)
    # A command ends whatever input was awaited, then runs.
    turn.interrupted = turn.user.awaiting
    if turn.user.awaiting is not None:
        await turn.expect(None)
    handler = COMMANDS.get(command.name.lower())
    if handler is None:
        turn.say(turn.texts.unknown_command)
        return
    await handler(turn, command)


async def _pressed(turn: Turn, press: Press) -> None:
    action = parse_action(press.data)
    # In a group everyone sees the buttons; a draft's own are checked against the draft.
    if isinstance(action, OwnedAction) and action.owner != turn.user_id:
        turn.notice(turn.texts.not_your_button)
        return
    if action is None:
        # Stale, foreign or tampered data: a notice, and nothing else happens.
        turn.notice(turn.texts.stale_button)
        return
    await entry_of(action).answer(turn, action, press)
