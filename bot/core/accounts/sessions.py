"""The users' stored sessions at this upstream: their tokens, encrypted at rest, and the
version every change after a login must name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.conversation.events import UserKey
from storage import Database, TokenCipher, Transaction, upstream_sessions
from storage.models import ChatUser
from storage.upstream_sessions import AccessToken, StoredSession, Tokens

__all__ = ["SessionStore", "SignedIn", "masked_email"]


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A user's stored session as dialogs see it: whose account, never its tokens."""

    # The masked e-mail; None for a session stored before it was kept.
    account: str | None


def masked_email(email: str) -> str:
    """The e-mail with its local part hidden but its first letter: ``d***@example.com``."""
    local, _, domain = email.strip().rpartition("@")
    return f"{local[:1]}***@{domain}"


class SessionStore:
    """Each user's session at one upstream URL; a session is only valid there."""

    def __init__(self, *, db: Database, cipher: TokenCipher, upstream_url: str) -> None:
        self._db = db
        self._cipher = cipher
        self.upstream_url = upstream_url

    async def load(self, user_id: int) -> StoredSession | None:
        """The user's session; None when logged out (or no key decrypts it)."""
        return await self._db.read(
            lambda s: upstream_sessions.load_session(
                s, cipher=self._cipher, user_id=user_id, upstream_url=self.upstream_url
            )
        )

    def with_user_in(
        self, transaction: Transaction, user: UserKey
    ) -> tuple[ChatUser, AccessToken | None] | None:
        """The chat user and their access token, read at once in a transaction under way;
        None for a user not seen before."""
        return upstream_sessions.user_with_access_token(
            transaction,
            cipher=self._cipher,
            platform=user.platform,
            workspace=user.workspace,
            external_id=user.external_id,
            upstream_url=self.upstream_url,
        )

    async def save(self, user_id: int, tokens: Tokens, *, account: str) -> None:
        """Store the tokens of a fresh login, in place of any earlier session."""
        await self._db.run(
            lambda s: upstream_sessions.save_session(
                s,
                cipher=self._cipher,
                user_id=user_id,
                upstream_url=self.upstream_url,
                tokens=tokens,
                account=account,
            )
        )

    async def delete(self, user_id: int, *, version: int | None = None) -> bool:
        """Forget the user's tokens (only those of ``version``, if given); whether it did."""
        return await self._db.run(
            lambda s: upstream_sessions.delete_session(
                s, user_id=user_id, upstream_url=self.upstream_url, expected_version=version
            )
        )

    async def claim_refresh(
        self, user_id: int, *, version: int, now: datetime, until: datetime
    ) -> bool:
        """Mark the session at ``version`` as being refreshed here; False when it is elsewhere
        (or the session changed)."""
        return await self._db.run(
            lambda s: upstream_sessions.claim_refresh(
                s,
                user_id=user_id,
                upstream_url=self.upstream_url,
                version=version,
                now=now,
                until=until,
            )
        )

    async def release_refresh(self, user_id: int, *, version: int) -> None:
        """End a refresh claimed here that stored nothing, for another to try."""
        await self._db.run(
            lambda s: upstream_sessions.release_refresh(
                s, user_id=user_id, upstream_url=self.upstream_url, version=version
            )
        )

    async def swap(self, user_id: int, *, version: int, tokens: Tokens) -> StoredSession | None:
        """Store refreshed tokens in place of those of ``version``; None if those are gone."""
        return await self._db.run(
            lambda s: upstream_sessions.swap_tokens(
                s,
                cipher=self._cipher,
                user_id=user_id,
                upstream_url=self.upstream_url,
                expected_version=version,
                tokens=tokens,
            )
        )
