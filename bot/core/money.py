"""Money the Turkish way: ``1.234,50 TL`` from a ``Decimal``, rounded half up."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["format_tl", "to_kurus"]

_CENT = Decimal("0.01")
# Python groups with "," and marks decimals with "."; Turkish does the opposite.
_TURKISH_MARKS = str.maketrans(",.", ".,")


def to_kurus(amount: Decimal) -> Decimal:
    """The amount rounded half up to whole kuruş, as the service charges."""
    return amount.quantize(_CENT, rounding=ROUND_HALF_UP)


def format_tl(amount: Decimal) -> str:
    """Format an amount of Turkish lira: dots group thousands, a comma before the kuruş."""
    rounded = to_kurus(amount)
    grouped = f"{abs(rounded):,.2f}".translate(_TURKISH_MARKS)
    sign = "-" if rounded < 0 else ""
    return f"{sign}{grouped} TL"
