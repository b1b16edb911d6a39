"""Logging that never shows a secret, at any level.

python-telegram-bot logs whole requests at DEBUG, httpx logs URLs (the Bot
API URL holds the bot token) at INFO, and tracebacks quote arguments, so the
redaction is applied to the whole formatted line, not per logger.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import TextIO

__all__ = ["RedactingFormatter", "configure_logging"]

_MASK = "***"
_PATTERNS = (
    re.compile(r"\d{5,}:[A-Za-z0-9_-]{30,}"),  # Telegram bot token
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]+"),  # Slack tokens
    re.compile(r"\bxapp-[A-Za-z0-9-]+"),  # Slack app-level token
    re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"),  # a JWT
    re.compile(r"(?i)(bearer\s+)[^\s'\",]+"),
    re.compile(r"(?i)((?:password|refresh_?token|access_?token)['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"),
)
# Libraries that log secrets at low levels are held to these levels.
_CAPPED = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "telegram": logging.INFO,
    # Behind our pacer it passes each 429 on, with a traceback; the pacer logs the wait.
    "telegram.ext.AIORateLimiter": logging.CRITICAL,
    # Both log response URLs (live credentials for a few minutes) at DEBUG.
    "slack_sdk": logging.INFO,
    "slack_bolt": logging.INFO,
    "uvicorn": logging.WARNING,
    # One line per scheduler run or migration step is noise, not news.
    "apscheduler": logging.WARNING,
    "alembic": logging.WARNING,
}


class RedactingFormatter(logging.Formatter):
    """Formats a record, then masks token patterns and the known secret values."""

    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        self._secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        """The formatted line (with any traceback), secrets masked."""
        return self.redact(super().format(record))

    def redact(self, text: str) -> str:
        """Mask every secret in a text."""
        for secret in self._secrets:
            text = text.replace(secret, _MASK)
        for pattern in _PATTERNS:
            text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + _MASK, text)
        return text


def configure_logging(
    level: str, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> None:
    """Log to stderr (or ``stream``) through the redacting formatter; noisy libraries are capped."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", secrets)
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name, floor in _CAPPED.items():
        logging.getLogger(name).setLevel(max(floor, logging.getLevelName(level)))
