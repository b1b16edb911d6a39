"""Bookkeeping: each platform update handled once, failed logins counted for throttling."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from storage import ChatUser, Database, bookkeeping, users

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _mark(database: Database, source: str, update_id: str) -> bool:
    return database.run_sync(
        lambda session: bookkeeping.mark_processed(session, source=source, update_id=update_id)
    )


def test_an_update_is_new_only_once_per_source(database: Database) -> None:
    assert _mark(database, "telegram", "100") is True
    assert _mark(database, "telegram", "100") is False
    assert _mark(database, "slack", "100") is True


def _claim(database: Database, update_id: str, seconds: float) -> bool:
    return database.run_sync(
        lambda session: bookkeeping.claim_update(
            session, source="telegram", update_id=update_id, seconds=seconds
        )
    )


def test_an_update_sent_again_while_claimed_is_taken_over_and_once_finished_is_a_replay(
    database: Database,
) -> None:
    assert _claim(database, "200", 60.0) is True
    # Telegram sends it again only when its handler never answered: it died with its process.
    assert _claim(database, "200", 60.0) is True
    database.run_sync(
        lambda session: bookkeeping.finish_update(session, source="telegram", update_id="200")
    )
    assert _claim(database, "200", 60.0) is False
    assert _mark(database, "telegram", "200") is False


def test_a_claim_never_finished_counts_as_handled_once_over(database: Database) -> None:
    assert _claim(database, "300", 0.0) is True
    assert _claim(database, "300", 60.0) is False


def test_racing_replicas_process_an_update_once(database: Database) -> None:
    racers = 4
    start = threading.Barrier(racers, timeout=10)

    def mark(_: int) -> bool:
        start.wait()
        return _mark(database, "slack", "Ev123")

    with ThreadPoolExecutor(racers) as pool:
        results = list(pool.map(mark, range(racers)))

    assert results.count(True) == 1


def test_prune_forgets_only_old_updates(database: Database) -> None:
    _mark(database, "telegram", "1")
    pruned_none = database.run_sync(
        lambda session: bookkeeping.prune_processed(session, before=NOW)
    )
    pruned_all = database.run_sync(
        lambda session: bookkeeping.prune_processed(
            session, before=datetime.now(UTC) + timedelta(minutes=1)
        )
    )

    assert (pruned_none, pruned_all) == (0, 1)
    assert _mark(database, "telegram", "1") is True


def test_failed_logins_are_counted_per_user_and_for_the_bot(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    other = database.run_sync(
        lambda session: users.get_or_create_user(
            session, platform="slack", workspace="T1", external_id="U1"
        )
    )
    attempts = [
        (user_id, NOW - timedelta(hours=2), "a"),
        (user_id, NOW - timedelta(minutes=5), "a"),
        (user_id, NOW - timedelta(minutes=1), "b"),
        (other.id, NOW - timedelta(minutes=3), "a"),
        (None, NOW - timedelta(minutes=2), None),
    ]

    def record(session: Session) -> None:
        for attempt_user, at, email_hash in attempts:
            bookkeeping.record_failed_login(
                session, user_id=attempt_user, at=at, email_hash=email_hash
            )

    database.run_sync(record)

    def count(user: int | None) -> int:
        return database.run_sync(
            lambda session: bookkeeping.failed_logins_since(
                session, since=NOW - timedelta(minutes=15), now=NOW, user_id=user
            )
        )

    since = NOW - timedelta(minutes=15)
    assert count(user_id) == 2
    assert count(None) == 4
    at_a = database.run_sync(
        lambda session: bookkeeping.failed_logins_since(
            session, since=since, now=NOW, email_hash="a"
        )
    )
    assert at_a == 2
    by_user = database.run_sync(
        lambda session: bookkeeping.failed_logins_by_user_since(session, since=since, now=NOW)
    )
    assert by_user == {user_id: 2, other.id: 1, None: 1}
