"""Modal submissions: checked, acknowledged (which closes the modal), then handed to the core."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.core.conversation.events import LoginForm, OrderForm, SiteForm
from bot.core.conversation.forms import looks_like_email, title_problem
from bot.slack.context import SlackDeps, deps_of
from bot.slack.home import home_origin
from bot.slack.modals import (
    CLIENT,
    EMAIL,
    LOGIN,
    ORDER,
    PASSWORD,
    SITE,
    SIZE,
    TITLE,
    TONE,
    ModalOrigin,
    field,
    selected,
    site_form,
)
from bot.slack.origins import interaction_origin
from bot.slack.replies import Replies

__all__ = ["login_submitted", "order_submitted", "register", "site_submitted"]


async def _answer(
    deps: SlackDeps,
    body: dict[str, Any],
    view: dict[str, Any],
    event: LoginForm | OrderForm | SiteForm,
) -> None:
    """Let the core answer, shown in the channel of the command that opened the modal (to the
    user alone), or posted in their DM where a global shortcut opened it."""
    where = ModalOrigin.of(view)
    if not where.response_url:
        # Opened from the Home tab or a global shortcut: no command to answer, so the answer
        # goes to the user's DM.
        team = interaction_origin(body, where.channel_id).user.workspace
        asker = home_origin(team, where.channel_id)
        await deps.answer_in_chat(asker, event)
    else:
        asker = interaction_origin(body, where.channel_id)
        respond = AsyncRespond(response_url=where.response_url)
        replies = Replies(respond, deps.messenger, asker.chat)
        await deps.answer(asker, event, replies)
    if isinstance(event, LoginForm):
        deps.home.refresh(asker.chat)


async def login_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], context: AsyncBoltContext
) -> None:
    """Close the modal (or point at a surely wrong e-mail), then log in with the two fields."""
    deps = deps_of(context)
    email = field(view, EMAIL).strip()
    if not looks_like_email(email):
        asker = interaction_origin(body, ModalOrigin.of(view).channel_id)
        _, texts = await deps.speaking_to(asker)
        await ack(response_action="errors", errors={EMAIL: texts.bad_email})
        return
    await ack()
    await _answer(deps, body, view, LoginForm(email, field(view, PASSWORD)))


async def order_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], context: AsyncBoltContext
) -> None:
    """Close the modal (or say what is wrong with the title), then show the order's summary."""
    deps = deps_of(context)
    title = " ".join(field(view, TITLE).split())
    texts, _ = await deps.speaking_to(interaction_origin(body, ModalOrigin.of(view).channel_id))
    problem = title_problem(texts, title)
    if problem:
        await ack(response_action="errors", errors={TITLE: problem})
        return
    await ack()
    client = selected(view, CLIENT) if CLIENT in view["state"]["values"] else None
    form = OrderForm(title, selected(view, TONE), selected(view, SIZE), client)
    await _answer(deps, body, view, form)


async def site_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], context: AsyncBoltContext
) -> None:
    """Close the modal, then let the core check the site and answer."""
    await ack()
    await _answer(deps_of(context), body, view, site_form(view))


def register(app: AsyncApp) -> None:
    """Route each modal's submission to its listener."""
    app.view(LOGIN)(login_submitted)
    app.view(ORDER)(order_submitted)
    app.view(SITE)(site_submitted)
