"""The two buttons that order an earlier article again, on its delivery and in /makalelerim."""

from __future__ import annotations

from bot.core.actions import OrderAgain, OtherTone, fits_in_button
from bot.core.screens import Button
from bot.core.texts import Texts, in_every_language

__all__ = ["again_row"]


def again_row(
    texts: Texts, owner: int, request_id: str, number: int | None = None
) -> tuple[Button, ...]:
    """``Tekrar sipariş`` and ``Başka ton`` for one article; ``number`` names it in a list.

    Empty when the upstream's id is too long to travel in a button.
    """
    if not fits_in_button(request_id):
        return ()
    suffix = "" if number is None else f" · {number}"
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
    )
