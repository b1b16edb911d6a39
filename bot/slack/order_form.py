"""The order modal opened from a trigger (/yaz, a shortcut): the form once its choices are in,
or the core's answer instead (log in first)."""

from __future__ import annotations

import asyncio

from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.events import Origin
from bot.core.conversation.forms import OrderChoices
from bot.core.conversation.presenter import Presenter, present
from bot.core.conversation.screens import Effect, Screen, Send
from bot.slack.context import SlackDeps
from bot.slack.modals import ModalOrigin, View, loading_view, order_view, screen_view
from bot.slack.texts import SlackTexts

__all__ = ["FORM_PATIENCE", "open_order_form"]

# A trigger id lasts three seconds: choices slower than this wait behind a loading modal.
FORM_PATIENCE = 1.5


async def open_order_form(
    client: AsyncWebClient,
    deps: SlackDeps,
    where: Origin,
    *,
    trigger_id: str,
    modal_origin: ModalOrigin,
    answer: Presenter | None,
    title: str = "",
) -> None:
    """Open the order form (``title`` filled in); the core's answer instead goes to ``answer``,
    or into the modal where there is none (a global shortcut has no response URL)."""
    choosing = asyncio.ensure_future(deps.conversations.order_form(where))
    done, _ = await asyncio.wait({choosing}, timeout=FORM_PATIENCE)
    _, texts = await deps.speaking_to(where)
    if not done:
        opened = await client.views_open(
            trigger_id=trigger_id, view=loading_view(texts, modal_origin)
        )
        shown = opened["view"]
        view = _view(texts, await choosing, modal_origin, title)
        await client.views_update(view_id=shown["id"], hash=shown["hash"], view=view)
        return
    form = choosing.result()
    if isinstance(form, list) and answer is not None:
        # Not the form but the core's answer, e.g. the need to log in first.
        await present(answer, form)
        return
    await client.views_open(trigger_id=trigger_id, view=_view(texts, form, modal_origin, title))


def _view(
    texts: SlackTexts, form: OrderChoices | list[Effect], modal_origin: ModalOrigin, title: str
) -> View:
    if isinstance(form, list):
        blocks = tuple(block for e in form if isinstance(e, Send) for block in e.screen.blocks)
        return screen_view(texts, Screen(blocks), modal_origin)
    return order_view(texts, form, modal_origin, title_given=title)
