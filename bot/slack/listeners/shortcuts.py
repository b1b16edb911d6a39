"""Shortcuts: "Makale sipariş et" on a message opens the order form with that message as the
title; "Yeni makale" opens the order form from anywhere.

The modal is opened through Bolt's ``client``, which carries the token of the workspace the
shortcut came from.
"""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.forms import title_from_message, title_problem
from bot.core.conversation.presenter import present
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen, Send
from bot.slack.context import deps_of
from bot.slack.modals import ModalOrigin
from bot.slack.order_form import open_order_form
from bot.slack.origins import interaction_origin
from bot.slack.render import unescape
from bot.slack.replies import Replies

__all__ = ["NEW_ARTICLE", "ORDER_FROM_MESSAGE", "new_article", "order_from_message", "register"]

# The shortcuts' callback ids, as slack/manifest.yml declares them.
ORDER_FROM_MESSAGE, NEW_ARTICLE = "order_from_message", "new_article"


async def order_from_message(
    ack: AsyncAck, shortcut: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Open the order form titled with the message's first line; a title too short is refused
    the way a typed one is, to the user alone."""
    await ack()
    deps = deps_of(context)
    channel = str(shortcut["channel"]["id"])
    where = interaction_origin(shortcut, channel)
    answer = Replies(
        AsyncRespond(response_url=shortcut["response_url"]), deps.messenger, where.chat
    )
    title = title_from_message(unescape(str(shortcut.get("message", {}).get("text") or "")))
    texts, _ = await deps.speaking_to(where)
    problem = title_problem(texts, title)
    if problem:
        await present(answer, (Send(Screen((paragraph(problem),))),))
        return
    await open_order_form(
        client,
        deps,
        where,
        trigger_id=shortcut["trigger_id"],
        modal_origin=ModalOrigin(channel, str(shortcut["response_url"])),
        answer=answer,
        title=title,
    )


async def new_article(
    ack: AsyncAck, shortcut: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Open the order form; with no channel, the order and its article go to the user's DM."""
    await ack()
    user = str(shortcut["user"]["id"])
    await open_order_form(
        client,
        deps_of(context),
        interaction_origin(shortcut, user),
        trigger_id=shortcut["trigger_id"],
        modal_origin=ModalOrigin(user, ""),
        answer=None,
    )


def register(app: AsyncApp) -> None:
    """Route each shortcut to its listener."""
    app.shortcut(ORDER_FROM_MESSAGE)(order_from_message)
    app.shortcut(NEW_ARTICLE)(new_article)
