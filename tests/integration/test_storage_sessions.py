"""Upstream sessions: encrypted tokens, compare-and-swap refreshes, key rotation."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from storage import (
    AccessToken,
    Awaiting,
    ChatUser,
    Database,
    StoredSession,
    TokenCipher,
    Tokens,
    UpstreamSession,
    generate_key,
    upstream_sessions,
    users,
)

URL = "https://api.example.com"
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _tokens(tag: str) -> Tokens:
    return Tokens(
        access_token=f"access-{tag}-secret",
        access_expires_at=NOW + timedelta(hours=1),
        refresh_token=f"refresh-{tag}-secret",
        refresh_expires_at=NOW + timedelta(days=30),
    )


def _user_id(chat_user: ChatUser) -> int:
    assert chat_user.id is not None
    return chat_user.id


def _save(database: Database, cipher: TokenCipher, user_id: int, tokens: Tokens) -> StoredSession:
    return database.run_sync(
        lambda session: upstream_sessions.save_session(
            session, cipher=cipher, user_id=user_id, upstream_url=URL, tokens=tokens
        )
    )


def _load(database: Database, cipher: TokenCipher, user_id: int) -> StoredSession | None:
    return database.run_sync(
        lambda session: upstream_sessions.load_session(
            session, cipher=cipher, user_id=user_id, upstream_url=URL
        )
    )


def _stored_bytes(database: Database) -> list[bytes]:
    rows = database.run_sync(lambda session: session.exec(select(UpstreamSession)).all())
    return [token for row in rows for token in (row.access_token, row.refresh_token)]


def test_tokens_round_trip_and_are_not_stored_in_plain_text(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    saved = _save(database, cipher, user_id, _tokens("a"))

    assert _load(database, cipher, user_id) == saved
    assert saved.tokens == _tokens("a")
    assert saved.version == 1
    stored = _stored_bytes(database)
    assert len(stored) == 2
    assert all(b"secret" not in token for token in stored)


def test_saving_again_replaces_the_session_and_moves_the_version(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    _save(database, cipher, user_id, _tokens("a"))
    again = _save(database, cipher, user_id, _tokens("b"))

    assert again.version == 2
    assert _load(database, cipher, user_id) == again
    assert len(_stored_bytes(database)) == 2


def test_a_swap_from_a_stale_version_loses(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    saved = _save(database, cipher, user_id, _tokens("a"))

    def swap(tokens: Tokens) -> StoredSession | None:
        return database.run_sync(
            lambda session: upstream_sessions.swap_tokens(
                session,
                cipher=cipher,
                user_id=user_id,
                upstream_url=URL,
                expected_version=saved.version,
                tokens=tokens,
            )
        )

    winner = swap(_tokens("b"))
    loser = swap(_tokens("c"))

    assert winner is not None
    assert winner.version == saved.version + 1
    assert loser is None
    assert _load(database, cipher, user_id) == winner


def test_reencrypt_all_moves_tokens_to_the_new_first_key(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    old_key, new_key = generate_key(), generate_key()
    _save(database, TokenCipher(old_key), user_id, _tokens("a"))

    moved = database.run_sync(
        lambda session: upstream_sessions.reencrypt_all(
            session, cipher=TokenCipher([new_key, old_key])
        )
    )

    assert moved == 1
    loaded = _load(database, TokenCipher(new_key), user_id)
    assert loaded is not None
    assert loaded.tokens == _tokens("a")


def test_undecryptable_tokens_load_as_none_and_log_no_secret(
    database: Database, cipher: TokenCipher, chat_user: ChatUser, caplog: pytest.LogCaptureFixture
) -> None:
    user_id = _user_id(chat_user)
    _save(database, cipher, user_id, _tokens("a"))

    with caplog.at_level(logging.WARNING, logger="storage"):
        loaded = _load(database, TokenCipher(generate_key()), user_id)

    assert loaded is None
    assert "match no configured key" in caplog.text
    assert "secret" not in caplog.text


def test_delete_session_says_whether_there_was_one(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    _save(database, cipher, user_id, _tokens("a"))

    def delete() -> bool:
        return database.run_sync(
            lambda session: upstream_sessions.delete_session(
                session, user_id=user_id, upstream_url=URL
            )
        )

    assert delete() is True
    assert delete() is False
    assert _load(database, cipher, user_id) is None


def test_a_delete_naming_a_stale_version_deletes_nothing(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    first = _save(database, cipher, user_id, _tokens("a"))
    latest = _save(database, cipher, user_id, _tokens("b"))

    def delete(version: int) -> bool:
        return database.run_sync(
            lambda session: upstream_sessions.delete_session(
                session, user_id=user_id, upstream_url=URL, expected_version=version
            )
        )

    assert delete(first.version) is False
    assert _load(database, cipher, user_id) == latest
    assert delete(latest.version) is True
    assert _load(database, cipher, user_id) is None


def test_sessions_are_kept_per_upstream_url(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    _save(database, cipher, user_id, _tokens("real"))
    sandbox = database.run_sync(
        lambda session: upstream_sessions.load_session(
            session, cipher=cipher, user_id=user_id, upstream_url="http://127.0.0.1:8000"
        )
    )
    assert sandbox is None


def test_repr_hides_the_tokens() -> None:
    shown = repr(StoredSession(1, URL, _tokens("a"), 1))
    assert "secret" not in shown
    assert "access_expires_at" in shown


def _with_user(
    database: Database, cipher: TokenCipher, external_id: str, upstream_url: str = URL
) -> tuple[ChatUser, AccessToken | None] | None:
    return database.run_sync(
        lambda session: upstream_sessions.user_with_access_token(
            session,
            cipher=cipher,
            platform="telegram",
            workspace="",
            external_id=external_id,
            upstream_url=upstream_url,
        )
    )


def test_a_user_is_read_with_their_access_token_in_one_statement(
    database: Database, cipher: TokenCipher, chat_user: ChatUser
) -> None:
    assert _with_user(database, cipher, "someone else") is None
    user_id = _user_id(chat_user)
    database.run_sync(
        lambda session: users.set_awaiting(
            session, user_id=user_id, awaiting=Awaiting.PASSWORD, context="d@x.co", at=NOW
        )
    )
    chat_user = database.run_sync(lambda session: session.get_one(ChatUser, user_id))
    found = _with_user(database, cipher, chat_user.external_id)
    assert found is not None
    # Each column read back as its type gives it: an aware time, an enum member.
    assert found[0].model_dump() == chat_user.model_dump()
    assert found[0].awaiting is Awaiting.PASSWORD
    assert found[0].awaiting_since == NOW
    assert found[1] is None, "no session yet"

    saved = _save(database, cipher, _user_id(chat_user), _tokens("a"))
    found = _with_user(database, cipher, chat_user.external_id)
    assert found is not None
    assert found[0].model_dump() == chat_user.model_dump()
    tokens = saved.tokens
    assert found[1] == AccessToken(tokens.access_token, tokens.access_expires_at)
    assert "secret" not in repr(found[1])
    elsewhere = _with_user(database, cipher, chat_user.external_id, "http://127.0.0.1:8000")
    assert elsewhere is not None
    assert elsewhere[1] is None, "a session is only valid at its own URL"
    undecryptable = _with_user(database, TokenCipher(generate_key()), chat_user.external_id)
    assert undecryptable is not None
    assert undecryptable[1] is None
