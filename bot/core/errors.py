"""Failures of the core's own rules (the upstream's are in ``bot.api.errors``)."""

from __future__ import annotations

__all__ = ["CoreError", "DraftClosed", "LoginThrottled", "NotLoggedIn", "SessionExpired"]


class CoreError(Exception):
    """Base of the core's own failures."""


class NotLoggedIn(CoreError):
    """The chat user has no upstream session."""


class SessionExpired(NotLoggedIn):
    """The upstream refused the refresh token: the user must log in again."""


class LoginThrottled(CoreError):
    """Too many failed logins lately, for this user or for the whole bot."""


class DraftClosed(CoreError):
    """The order was submitted, cancelled or closed since its screen was shown."""
