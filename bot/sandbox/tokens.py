"""Access tokens (JWT) and rotating refresh tokens, timed by the sandbox clock."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import jwt

from bot.sandbox.clock import SandboxClock

__all__ = ["ACCESS_LIFETIME", "REFRESH_LIFETIME", "TokenIssuer", "TokenPair"]

ACCESS_LIFETIME = timedelta(minutes=60)
REFRESH_LIFETIME = timedelta(days=30)
_ALGORITHM = "HS256"


@dataclass(frozen=True)
class TokenPair:
    """The answer of login and refresh."""

    access_token: str
    access_expires: int
    refresh_token: str


@dataclass(frozen=True)
class _RefreshGrant:
    email: str
    expires_at: datetime


class TokenIssuer:
    """Signs access tokens with its own random secret and keeps the live refresh tokens."""

    def __init__(self, clock: SandboxClock) -> None:
        self._clock = clock
        self._secret = secrets.token_bytes(32)
        self._refresh: dict[str, _RefreshGrant] = {}

    def issue(self, email: str) -> TokenPair:
        """A new token pair for the account `email`."""
        now = self._clock.now()
        expires = int((now + ACCESS_LIFETIME).timestamp())
        claims = {
            "sub": email,
            "iat": int(now.timestamp()),
            "exp": expires,
            "jti": uuid.uuid4().hex,
        }
        access = jwt.encode(claims, self._secret, algorithm=_ALGORITHM)
        refresh = secrets.token_urlsafe(32)
        self._refresh[refresh] = _RefreshGrant(email, now + REFRESH_LIFETIME)
        return TokenPair(access, expires, refresh)

    def subject_of(self, access_token: str) -> str | None:
        """The e-mail an access token was issued to, or None if it is forged or expired."""
        try:
            # Expiry is checked against the sandbox clock below, not the wall clock.
            claims = jwt.decode(
                access_token,
                self._secret,
                algorithms=[_ALGORITHM],
                options={"verify_exp": False, "verify_iat": False, "require": ["sub", "exp"]},
            )
        except jwt.InvalidTokenError:
            return None
        if self._clock.now().timestamp() >= claims["exp"]:
            return None
        subject: str = claims["sub"]
        return subject

    def rotate(self, refresh_token: str) -> TokenPair | None:
        """Trade a live refresh token for a new pair; the old one stops working."""
        grant = self._refresh.pop(refresh_token, None)
        if grant is None or self._clock.now() >= grant.expires_at:
            return None
        return self.issue(grant.email)
