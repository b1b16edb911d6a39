"""Statements run on the driver's cursor keep every column's type, both ways, on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import bindparam, inspect, select, update
from sqlmodel import col

from storage import Awaiting, ChatUser, Database
from storage.prepared import Prepared, loaded

_AWAIT = Prepared(
    update(ChatUser)
    .where(col(ChatUser.id) == bindparam("user_id"))
    .values(awaiting=bindparam("what"), awaiting_since=bindparam("since"))
)
_AWAITED = Prepared(
    select(col(ChatUser.awaiting), col(ChatUser.awaiting_since)).where(
        col(ChatUser.id) == bindparam("user_id")
    )
)


def _user_id(chat_user: ChatUser) -> int:
    assert chat_user.id is not None
    return chat_user.id


def test_values_are_written_and_read_through_their_columns_types(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    istanbul = datetime(2026, 5, 1, 15, 0, tzinfo=timezone(timedelta(hours=3)))

    database.run_sync(
        lambda session: _AWAIT.execute(
            session, {"user_id": user_id, "what": Awaiting.TITLE, "since": istanbul}
        )
    )
    row = database.run_sync(lambda session: _AWAITED.first(session, {"user_id": user_id}))
    loaded = database.run_sync(lambda session: session.get_one(ChatUser, user_id))

    # Stored in UTC and read back aware, the enum as its member: as through the ORM.
    assert row is not None
    assert row.awaiting is Awaiting.TITLE
    assert row.awaiting_since == istanbul
    assert row.awaiting_since.utcoffset() == timedelta(0)
    assert (loaded.awaiting, loaded.awaiting_since) == (row.awaiting, row.awaiting_since)
    assert loaded.awaiting_since == datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def test_a_naive_time_is_refused_as_through_sqlalchemy(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    with pytest.raises(ValueError, match="naive datetime"):
        database.run_sync(
            lambda session: _AWAIT.execute(
                session,
                {"user_id": user_id, "what": Awaiting.TITLE, "since": datetime(2026, 5, 1)},
            )
        )


def test_no_row_is_none(database: Database) -> None:
    assert database.run_sync(lambda session: _AWAITED.first(session, {"user_id": 404})) is None


def test_a_loaded_row_is_the_object_the_orm_loads_and_changes_like_one(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    by_orm = database.run_sync(lambda session: session.get_one(ChatUser, user_id))
    values = by_orm.model_dump()

    user = loaded(ChatUser, values)

    assert user.model_dump() == values
    assert repr(user) == repr(by_orm)
    # Belonging to no session, as one made by the constructor: adding it would insert it.
    assert inspect(user).transient
    # A turn changes what the user awaits on the object it was given: the ORM tracks it.
    user.awaiting = Awaiting.TITLE
    assert inspect(user).attrs.awaiting.history.added == [Awaiting.TITLE]
