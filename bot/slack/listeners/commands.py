"""Slash commands, acked at once: /giris and a bare /yaz open modals, the core runs the rest."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.events import Command, Origin
from bot.slack.context import SlackDeps, deps_of
from bot.slack.modals import ModalOrigin, login_view
from bot.slack.order_form import open_order_form
from bot.slack.origins import origin
from bot.slack.render import unescape
from bot.slack.replies import Replies

__all__ = ["log_in", "order", "register", "run_command"]

LOGIN_COMMAND, ORDER_COMMAND = "giris", "yaz"


def _name(command: dict[str, Any]) -> str:
    return str(command["command"]).removeprefix("/").lower()


def _args(command: dict[str, Any]) -> str:
    return unescape(str(command.get("text") or "")).strip()


def _origin(command: dict[str, Any]) -> Origin:
    return origin(
        team_id=str(command.get("team_id") or ""),
        user_id=str(command["user_id"]),
        channel_id=str(command["channel_id"]),
    )


def _modal_origin(command: dict[str, Any]) -> ModalOrigin:
    return ModalOrigin(str(command["channel_id"]), str(command["response_url"]))


async def _answer(deps: SlackDeps, where: Origin, respond: AsyncRespond, event: Command) -> None:
    await deps.answer(where, event, Replies(respond, deps.messenger, where.chat))


async def run_command(
    ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, context: AsyncBoltContext
) -> None:
    """Acknowledge, then run the command in the core and show its answer to the user alone."""
    await ack()
    await _answer(
        deps_of(context), _origin(command), respond, Command(_name(command), _args(command))
    )


async def log_in(
    ack: AsyncAck, command: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Open the login modal, the e-mail typed after /giris filled in; anything else is ignored."""
    await ack()
    first = _args(command).partition(" ")[0]
    _, texts = await deps_of(context).speaking_to(_origin(command))
    view = login_view(texts, _modal_origin(command), email=first if "@" in first else "")
    await client.views_open(trigger_id=command["trigger_id"], view=view)


async def order(
    ack: AsyncAck,
    command: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    """With a title, on to the tone buttons; without, the order form (or the need to log in)."""
    await ack()
    deps, where = deps_of(context), _origin(command)
    if _args(command):
        await _answer(deps, where, respond, Command(ORDER_COMMAND, _args(command)))
        return
    await open_order_form(
        client,
        deps,
        where,
        trigger_id=command["trigger_id"],
        modal_origin=_modal_origin(command),
        answer=Replies(respond, deps.messenger, where.chat),
    )


def register(app: AsyncApp) -> None:
    """Route /giris and /yaz to their own listeners, and every other command to the core."""
    app.command(f"/{LOGIN_COMMAND}")(log_in)
    app.command(f"/{ORDER_COMMAND}")(order)
    # Never /giris or /yaz, not even when their own listener failed: Bolt then tries the next.
    app.command(re.compile(rf"^/(?!(?:{LOGIN_COMMAND}|{ORDER_COMMAND})$)"))(run_command)
