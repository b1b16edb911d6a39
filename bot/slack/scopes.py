"""The bot scopes the app asks a workspace for; slack/manifest.yml lists the same (a test
keeps the two the same)."""

from __future__ import annotations

__all__ = ["BOT_SCOPES"]

BOT_SCOPES = ("commands", "chat:write", "im:write", "im:history", "files:write", "files:read")
