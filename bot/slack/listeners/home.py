"""The Home tab: published when opened; its two form buttons open the login and order modals."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.ports import ChatPresenter
from bot.slack.context import deps_of
from bot.slack.home import HOME_LOG_IN, HOME_NEW_ARTICLE, home_origin
from bot.slack.modals import ModalOrigin, login_view
from bot.slack.order_form import open_order_form
from bot.slack.origins import interaction_origin

__all__ = ["home_opened", "log_in_pressed", "new_article_pressed", "register"]

_HOME = "home"


async def home_opened(event: dict[str, Any], context: AsyncBoltContext) -> None:
    """Publish the user's Home tab (the Messages tab needs nothing)."""
    if event.get("tab") != _HOME or not event.get("user"):
        return
    await deps_of(context).home.publish(context.team_id or "", str(event["user"]))


def _asker(body: dict[str, Any]) -> tuple[str, ModalOrigin]:
    """The team, and the modal's origin: the user's DM, no response URL."""
    user = str(body["user"]["id"])
    return interaction_origin(body, user).user.workspace, ModalOrigin(user, "")


async def log_in_pressed(
    ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Open the login modal; its answer goes to the DM."""
    await ack()
    team, modal = _asker(body)
    _, texts = await deps_of(context).speaking_to(home_origin(team, modal.channel_id))
    await client.views_open(trigger_id=body["trigger_id"], view=login_view(texts, modal))


async def new_article_pressed(
    ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Open the order modal (or say in the DM why not: log in first)."""
    await ack()
    deps = deps_of(context)
    team, modal = _asker(body)
    where = home_origin(team, modal.channel_id)
    await open_order_form(
        client,
        deps,
        where,
        trigger_id=str(body["trigger_id"]),
        modal_origin=modal,
        answer=ChatPresenter(deps.messenger, where.chat),
    )


def register(app: AsyncApp) -> None:
    """Route the Home tab's event and its two form buttons."""
    app.event("app_home_opened")(home_opened)
    app.action(HOME_LOG_IN)(log_in_pressed)
    app.action(HOME_NEW_ARTICLE)(new_article_pressed)
