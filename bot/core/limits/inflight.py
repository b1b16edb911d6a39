"""At most a few requests of one user handled (or waiting) at once in this process.

Every platform counts here: Telegram's updates (which wait for the user's earlier ones),
Slack's requests and WhatsApp's webhooks (which would otherwise run side by side). Without
the cap one user's flood would queue without end or take every upstream connection. Past it
the rest are dropped, and the user told once, until their requests have all finished.
"""

from __future__ import annotations

from bot.core.conversation.events import UserKey

__all__ = ["IN_FLIGHT_PER_USER", "InFlight"]

IN_FLIGHT_PER_USER = 10


class InFlight:
    """Counts each user's requests under way."""

    def __init__(self, limit: int = IN_FLIGHT_PER_USER) -> None:
        self._limit = limit
        self._running: dict[UserKey, int] = {}
        self._told: set[UserKey] = set()

    def take(self, user: UserKey) -> bool:
        """Count a request of ``user`` in, unless they have ``limit`` under way already."""
        running = self._running.get(user, 0)
        if running >= self._limit:
            return False
        self._running[user] = running + 1
        return True

    def first_refusal(self, user: UserKey) -> bool:
        """Whether a refused request is the first of this flood (the one to tell the user)."""
        if user in self._told:
            return False
        self._told.add(user)
        return True

    def release(self, user: UserKey) -> None:
        """Count a finished request out; the user's flood ends with their last one."""
        running = self._running.pop(user) - 1
        if running:
            self._running[user] = running
        else:
            self._told.discard(user)
