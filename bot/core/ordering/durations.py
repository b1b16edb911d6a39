"""Read the upstream's human estimates ("1-2 dakika", "30 saniye", "5 sn") as seconds."""

from __future__ import annotations

import re

from bot.core.texts.turkish import fold

__all__ = ["estimate_seconds"]

_UNITS: dict[str, float] = {
    "sn": 1,
    "saniye": 1,
    "s": 1,
    "sec": 1,
    "second": 1,
    "seconds": 1,
    "dk": 60,
    "dakika": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "sa": 3600,
    "saat": 3600,
    "h": 3600,
    "hour": 3600,
    "hours": 3600,
}
# A number (decimal comma or point), an optional range, then a unit word.
_ESTIMATE = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:-\s*\d+(?:[.,]\d+)?)?\s*([a-z]+)")


def estimate_seconds(text: str) -> float | None:
    """The lower bound of an estimate in seconds, or None when it cannot be read."""
    match = _ESTIMATE.search(fold(text))
    if match is None:
        return None
    number, unit = match.groups()
    factor = _UNITS.get(unit)
    if factor is None:
        return None
    return float(number.replace(",", ".")) * factor
