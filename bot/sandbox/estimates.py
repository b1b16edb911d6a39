"""The Turkish `estimatedTime` text of a create answer."""

from __future__ import annotations

import math

__all__ = ["estimated_time_text"]


def estimated_time_text(low: float, high: float) -> str:
    """Say a duration of `low` to `high` seconds in Turkish, led by its lower bound."""
    unit, scale = ("saniye", 1) if low < 60 else ("dakika", 60)
    # Rounding the lower bound down keeps a client that waits for it from polling too late.
    first = max(1, math.floor(low / scale))
    last = max(first, math.ceil(high / scale))
    return f"{first} {unit}" if first == last else f"{first}-{last} {unit}"
