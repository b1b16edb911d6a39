"""The buttons under a finished article, on its delivery and in /makalelerim: order it again,
and write it to its client's site."""

from __future__ import annotations

from bot.core.conversation.actions import OrderAgain, OtherTone, PublishDraft, fits_in_button
from bot.core.conversation.screens import Button
from bot.core.texts import Texts, in_every_language

__all__ = ["again_row"]


def again_row(
    texts: Texts,
    owner: int,
    request_id: str,
    number: int | None = None,
    *,
    to_site: bool = False,
) -> tuple[Button, ...]:
    """``Tekrar sipariş`` and ``Başka ton`` for one article, and ``WordPress'e taslak`` where
    its client has a site (``to_site``); ``number`` names it in a list.

    Empty when the upstream's id is too long to travel in a button.
    """
    if not fits_in_button(request_id):
        return ()
    suffix = "" if number is None else f" · {number}"
    publish = Button(
        f"{texts.sites.button_publish}{suffix}",
        PublishDraft(owner, request_id).encode(),
        aliases=in_every_language(lambda t: t.sites.button_publish),
    )
    return (
        Button(
            f"{texts.button_order_again}{suffix}",
            OrderAgain(owner, request_id).encode(),
            aliases=in_every_language(lambda t: t.button_order_again),
        ),
        Button(
            f"{texts.button_other_tone}{suffix}",
            OtherTone(owner, request_id).encode(),
            aliases=in_every_language(lambda t: t.button_other_tone),
        ),
        *((publish,) if to_site else ()),
    )
