"""Money from a ``Decimal``, rounded half up: ``1.234,50 TL`` in Turkish, ``1,234.50 TL`` else."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["ENGLISH_MARKS", "TURKISH_MARKS", "decimal_comma", "format_tl", "to_kurus"]

_CENT = Decimal("0.01")
# The thousands mark, then the decimal mark.
TURKISH_MARKS = ".,"
ENGLISH_MARKS = ",."


def to_kurus(amount: Decimal) -> Decimal:
    """The amount rounded half up to whole kuruş, as the service charges."""
    return amount.quantize(_CENT, rounding=ROUND_HALF_UP)


def format_tl(amount: Decimal, *, marks: str = TURKISH_MARKS) -> str:
    """Format an amount of Turkish lira; by default dots group thousands, a comma before kuruş."""
    rounded = to_kurus(amount)
    # Python groups with "," and marks decimals with ".".
    grouped = f"{abs(rounded):,.2f}".translate(str.maketrans(ENGLISH_MARKS, marks))
    sign = "-" if rounded < 0 else ""
    return f"{sign}{grouped} TL"


def decimal_comma(amount: Decimal) -> str:
    """The amount as a spreadsheet in Turkish reads a number: ``1234,50``, no unit, no grouping."""
    return str(to_kurus(amount)).replace(".", ",")
