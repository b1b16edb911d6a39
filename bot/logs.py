"""Logging that never shows a secret, at any level.

python-telegram-bot logs whole requests at DEBUG, httpx logs URLs (the Bot
API URL holds the bot token) at INFO, and tracebacks quote arguments, so the
redaction is applied to the whole formatted line, not per logger.

A text log is read line by line, and much of what is logged comes from outside (a
query parameter, a service's answer), so in the text format a record's message is
one line: its control characters (newlines among them) are written escaped. A
traceback keeps its line breaks, but each of its lines is indented, so no line but
a record's first starts at the margin. JSON lines escape both by their nature.
"""

from __future__ import annotations

import copy
import logging
import re
import sys
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal, TextIO

from pythonjsonlogger.json import JsonFormatter

__all__ = ["RedactingFormatter", "RedactingJsonFormatter", "configure_logging"]

_MASK = "***"
_PATTERNS = (
    re.compile(r"\d{5,}:[A-Za-z0-9_-]{30,}"),  # Telegram bot token
    re.compile(r"\bxox[abposre]-[A-Za-z0-9-]+"),  # Slack tokens (xoxe: a refresh token)
    re.compile(r"\bxapp-[A-Za-z0-9-]+"),  # Slack app-level token
    re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"),  # a JWT
    re.compile(r"(?i)(bearer\s+)[^\s'\",]+"),
    # Slack's response URLs: each a live credential for a few minutes.
    re.compile(r"(https://hooks\.slack\.com/)[^\s'\",]+"),
    re.compile(r"(?i)(client_secret['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"),
    re.compile(r"(?i)((?:password|refresh_?token|access_?token)['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"),
)
# The bot's own loggers; every other one is a library's, held to the libraries' level.
_OWN = ("bot", "storage")
# Libraries that log secrets at low levels are held to these levels.
_CAPPED = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "telegram": logging.INFO,
    # Behind our pacer it passes each 429 on, with a traceback; the pacer logs the wait.
    "telegram.ext.AIORateLimiter": logging.CRITICAL,
    # slack_sdk's DEBUG lines (every Web API request and answer, oauth.v2.access's token and
    # apps.uninstall's client secret among them) go through the redaction above; its Socket
    # Mode client logs whole requests, a login form's password among them.
    "slack_sdk.socket_mode": logging.INFO,
    "slack_bolt": logging.INFO,
    # pywa logs every request's JSON and every answer at DEBUG: whole articles, people's words.
    "pywa": logging.INFO,
    "pywa_async": logging.INFO,
    "uvicorn": logging.WARNING,
    # One line per scheduler run or migration step is noise, not news.
    "apscheduler": logging.WARNING,
    "alembic": logging.WARNING,
}


class _Redactor:
    """Masks token patterns and the known secret values in a text."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, _MASK)
        for pattern in _PATTERNS:
            text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + _MASK, text)
        return text


# What may break or rewrite a line: C0 and C1 controls (NEL), line and paragraph separators.
_BREAKING = frozenset({"Cc", "Zl", "Zp"})
_TRACEBACK_INDENT = "  "


def _escaped(text: str, keep: str = "") -> str:
    """The text with each control character (but those in ``keep``) written as an escape."""
    if text.isprintable():
        return text
    return "".join(
        char
        if char in keep or unicodedata.category(char) not in _BREAKING
        else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


class RedactingFormatter(logging.Formatter):
    """One record a line (a traceback indented below it), then token patterns and secrets masked."""

    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        self.redact = _Redactor(secrets)

    def format(self, record: logging.LogRecord) -> str:
        """The formatted line (with any traceback), secrets masked."""
        # A copy: the record is shared with other handlers, which format it their own way.
        head = copy.copy(record)
        head.msg, head.args = _escaped(record.getMessage()), None
        head.exc_info, head.exc_text, head.stack_info = None, None, None
        blocks = [super().format(head)]
        if record.exc_info:
            blocks.append(self._indented(self.formatException(record.exc_info)))
        elif record.exc_text:
            blocks.append(self._indented(record.exc_text))
        if record.stack_info:
            blocks.append(self._indented(self.formatStack(record.stack_info)))
        return self.redact("\n".join(blocks))

    @staticmethod
    def _indented(block: str) -> str:
        lines = _escaped(block, keep="\n").split("\n")
        return "\n".join(_TRACEBACK_INDENT + line for line in lines)


class RedactingJsonFormatter(JsonFormatter):
    """One JSON object per record; every text field (traceback and extras too) masked."""

    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt, timestamp=False)
        self._redact = _Redactor(secrets)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        """The record's fields, each text redacted."""
        return {key: self._masked(value) for key, value in log_data.items()}

    def _masked(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._redact(value)
        if isinstance(value, dict):
            return {key: self._masked(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self._masked(item) for item in value]
        # Anything else is serialised by its str(), which may quote a secret.
        if value is None or isinstance(value, bool | int | float):
            return value
        return self._redact(str(value))


_FIELDS = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(
    level: str,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
    log_format: Literal["text", "json"] = "text",
    library_level: str = "WARNING",
) -> None:
    """Log to stderr (or ``stream``) through a redacting formatter.

    The bot's own loggers log at ``level``; every library's at ``library_level`` or
    ``level``, whichever is higher (markdown-it alone writes hundreds of DEBUG lines an
    article), and those that log secrets never below their caps.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    formatter: logging.Formatter = (
        RedactingJsonFormatter(_FIELDS, secrets)
        if log_format == "json"
        else RedactingFormatter(_FIELDS, secrets)
    )
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    libraries = max(logging.getLevelName(level), logging.getLevelName(library_level))
    # Loggers without a level of their own, the libraries', take the root's.
    root.setLevel(libraries)
    for name in _OWN:
        logging.getLogger(name).setLevel(level)
    for name, floor in _CAPPED.items():
        logging.getLogger(name).setLevel(max(floor, libraries))
