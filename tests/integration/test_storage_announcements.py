"""Announcements to a chat only a template reaches: one a day, whichever replica asks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from storage import Database, announcements

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def _announce(database: Database, chat_id: str, at: datetime) -> bool:
    return database.run_sync(
        lambda s: announcements.announce_once(
            s, platform="whatsapp", chat_id=chat_id, at=at, every=DAY
        )
    )


def test_a_chat_is_announced_to_once_a_day_and_each_chat_on_its_own(database: Database) -> None:
    assert _announce(database, "905551112233", NOW)
    assert not _announce(database, "905551112233", NOW + timedelta(hours=23))
    assert _announce(database, "905559998877", NOW + timedelta(hours=23))
    assert _announce(database, "905551112233", NOW + DAY)
    assert not _announce(database, "905551112233", NOW + DAY + timedelta(minutes=1))


def test_of_replicas_asking_at_once_one_announces(database: Database) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda _: _announce(database, "905551112233", NOW), range(8)))

    assert answers.count(True) == 1


def test_announcements_past_their_day_are_forgotten(database: Database) -> None:
    _announce(database, "905551112233", NOW)
    _announce(database, "905559998877", NOW + DAY)

    pruned = database.run_sync(
        lambda s: announcements.prune_announcements(s, before=NOW + timedelta(hours=1))
    )

    assert pruned == 1
    assert _announce(database, "905551112233", NOW + timedelta(hours=2))
