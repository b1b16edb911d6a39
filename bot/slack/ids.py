"""Message ids that carry their channel, so an edit or a thread reply finds the right one."""

from __future__ import annotations

__all__ = ["PLATFORM", "is_direct", "message_id", "split_message_id"]

PLATFORM = "slack"
_SEPARATOR = ":"


def message_id(channel: str, ts: str) -> str:
    """The id the core keeps for a message: its channel and its timestamp."""
    return f"{channel}{_SEPARATOR}{ts}"


def split_message_id(value: str) -> tuple[str | None, str]:
    """The channel (None for a bare timestamp) and the timestamp of a message id."""
    channel, separator, ts = value.rpartition(_SEPARATOR)
    return (channel or None, ts) if separator else (None, value)


def is_direct(channel: str) -> bool:
    """Whether a conversation id is a direct message with the bot."""
    return channel.startswith("D")
