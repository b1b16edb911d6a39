"""The platform's name, below every Telegram module so none needs the platform wiring for it."""

from __future__ import annotations

__all__ = ["PLATFORM"]

PLATFORM = "telegram"
