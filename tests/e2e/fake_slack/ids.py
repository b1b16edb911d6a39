"""Who the bot is in the fake workspace, and the ids and message timestamps the fake hands out."""

from __future__ import annotations

import itertools
import secrets
import time

__all__ = ["APP_ID", "BOT_ID", "BOT_USER_ID", "Ids"]

APP_ID = "A0FAKEAPP"
BOT_ID = "B0FAKEBOT"
BOT_USER_ID = "U0FAKEBOT"


class Ids:
    """Slack-looking ids and message timestamps, unique and increasing within one fake."""

    def __init__(self) -> None:
        self._serial = itertools.count(1)
        self._epoch = int(time.time())

    def new(self, prefix: str) -> str:
        """A fresh id such as ``D000000007`` (DM channel) or ``F000000008`` (file)."""
        return f"{prefix}{next(self._serial):09d}"

    def ts(self) -> str:
        """A fresh message timestamp; later calls give larger ones, as on Slack."""
        serial = next(self._serial)
        return f"{self._epoch + serial // 1_000_000}.{serial % 1_000_000:06d}"

    def secret(self) -> str:
        """A fresh unguessable token, for trigger ids and response URLs."""
        return f"{next(self._serial)}.{secrets.token_hex(8)}"
