"""Chat users: one row per platform, workspace and id, even under a race."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func
from sqlmodel import select

from storage import Awaiting, ChatUser, Database, users


def test_get_or_create_returns_one_row_per_identity(database: Database) -> None:
    def get(external_id: str, workspace: str = "") -> ChatUser:
        return database.run_sync(
            lambda session: users.get_or_create_user(
                session, platform="slack", workspace=workspace, external_id=external_id
            )
        )

    first = get("U1", "T1")
    assert get("U1", "T1").id == first.id
    assert get("U1", "T2").id != first.id
    assert get("U2", "T1").id != first.id


def test_racing_creators_get_the_same_user(database: Database) -> None:
    racers = 4
    start = threading.Barrier(racers, timeout=10)

    def create(_: int) -> int | None:
        start.wait()
        user = database.run_sync(
            lambda session: users.get_or_create_user(
                session, platform="telegram", workspace="", external_id="42"
            )
        )
        return user.id

    with ThreadPoolExecutor(racers) as pool:
        ids = set(pool.map(create, range(racers)))

    count = database.run_sync(
        lambda session: session.exec(select(func.count()).select_from(ChatUser)).one()
    )
    assert len(ids) == 1
    assert count == 1


def test_awaited_input_and_locale_are_stored(database: Database, chat_user: ChatUser) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    database.run_sync(
        lambda session: users.set_awaiting(
            session, user_id=user_id, awaiting=Awaiting.PASSWORD, context="a@b.com"
        )
    )
    database.run_sync(lambda session: users.set_locale(session, user_id=user_id, locale="en"))
    stored = database.run_sync(lambda session: users.get_user(session, user_id=user_id))
    assert stored is not None
    assert stored.awaiting is Awaiting.PASSWORD
    assert stored.awaiting_context == "a@b.com"
    assert stored.locale == "en"

    database.run_sync(lambda session: users.set_awaiting(session, user_id=user_id, awaiting=None))
    cleared = database.run_sync(lambda session: users.get_user(session, user_id=user_id))
    assert cleared is not None
    assert (cleared.awaiting, cleared.awaiting_context) == (None, None)


def test_unknown_user_is_none(database: Database) -> None:
    assert database.run_sync(lambda session: users.get_user(session, user_id=12345)) is None
