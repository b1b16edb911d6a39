"""Install states that need no row until they are spent: signed with the app's client secret.

``GET /slack/install`` is open to anyone, so handing out a state writes nothing: a state is
its time of issue and a random nonce, signed (HMAC-SHA256) with the client secret, and Bolt
keeps it in the browser's cookie too. The redirect checks the signature in constant time and
the state's age on any replica. A state is recorded as spent only when an install with it is
stored, so only a real install writes a row, and a spent state ends a later redirect before
any call to Slack.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from bot.slack.installations import Installations

__all__ = ["STATE_LIFETIME", "SignedStates"]

log = logging.getLogger(__name__)

# Long enough to read the scopes and approve; short enough that a leaked link soon expires.
STATE_LIFETIME = timedelta(minutes=10)
# Keeps these signatures apart from anything else ever signed with the client secret.
_PURPOSE = b"makale-bot slack install state\n"


def _now() -> datetime:
    return datetime.now(UTC)


class SignedStates(AsyncOAuthStateStore):
    """Install states signed, not stored; spent once, on any replica, before they expire."""

    def __init__(
        self,
        secret: str,
        installations: Installations,
        *,
        lifetime: timedelta = STATE_LIFETIME,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        self._key = secret.encode()
        self._installations = installations
        self._lifetime = lifetime
        self._clock = clock

    @property
    def logger(self) -> logging.Logger:
        """The store's logger (slack_sdk asks for it)."""
        return log

    async def async_issue(self, *args: object, **kwargs: object) -> str:
        """A new state: its time of issue and a nonce, signed; nothing is written."""
        body = f"{int(self._clock().timestamp())}.{secrets.token_urlsafe(16)}"
        return f"{body}.{self._signature(body)}"

    async def async_consume(self, state: str) -> bool:
        """Whether the state is ours, not expired and not spent; it stays good until an
        install with it is stored (``spend``)."""
        return self._expiry(state) is not None and not await self._installations.state_spent(state)

    async def spend(self, state: str) -> bool:
        """Record the state as spent, as an install with it is stored; whether it was good and
        not spent before."""
        expiry = self._expiry(state)
        return expiry is not None and await self._installations.spend_state(state, expiry)

    def _expiry(self, state: str) -> datetime | None:
        """When a good state expires; None for a forged, malformed or expired one."""
        body, _, signature = state.rpartition(".")
        # Bytes: a string to compare must be ASCII, and what arrives in a query may be anything.
        given = signature.encode(errors="replace")
        if not hmac.compare_digest(given, self._signature(body).encode()):
            return None
        # Signed by us, so the time is ours: its format needs no checking.
        expiry = datetime.fromtimestamp(int(body.partition(".")[0]), UTC) + self._lifetime
        return expiry if self._clock() < expiry else None

    def _signature(self, body: str) -> str:
        message = _PURPOSE + body.encode(errors="replace")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()
