"""The WhatsApp form of ``ADMIN_CHAT``: read once here, for the settings' check and the
platform."""

from __future__ import annotations

import re

from bot.core.conversation.events import ChatAddress
from bot.whatsapp.ids import PLATFORM

__all__ = ["ADMIN_PREFIX", "whatsapp_admin_chat"]

# ADMIN_CHAT names a person's chat with the number: whatsapp:905551112233.
ADMIN_PREFIX = "whatsapp:"
_FORMAT = re.compile(rf"^{ADMIN_PREFIX}\d{{6,15}}$")


def whatsapp_admin_chat(setting: str) -> ChatAddress | None:
    """The chat with the number ``whatsapp:<digits>`` names; else None."""
    if not _FORMAT.match(setting):
        return None
    return ChatAddress(PLATFORM, setting.removeprefix(ADMIN_PREFIX))
