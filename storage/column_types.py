"""Column types that give rows back as the Python types their fields declare."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import DateTime, String
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from storage.schedule import Schedule

__all__ = ["ScheduleType", "StrEnumType", "UTCDateTime"]

E = TypeVar("E", bound=enum.StrEnum)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware timestamp, stored in UTC and read back aware in UTC on every database.

    SQLite keeps no offset and would hand back naive values, which then cannot be compared
    with ``utcnow()``; PostgreSQL hands them back in the session's time zone.
    """

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Refuse naive values (their zone is a guess) and store the rest in UTC."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value.isoformat()}: pass an aware one")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read naive values (SQLite) as UTC and move aware ones to UTC."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class StrEnumType(TypeDecorator[E]):
    """A ``StrEnum`` stored as its value in a plain string column, read back as the member.

    A plain string column would hand back ``str``, so ``draft.step.value`` or an ``is``
    comparison would break on loaded rows; no database enum type keeps migrations simple.
    """

    impl = String
    cache_ok = True

    def __init__(self, enum_class: type[E], length: int) -> None:
        super().__init__(length)
        self.enum_class = enum_class
        self.length = length

    def process_bind_param(self, value: E | str | None, dialect: Dialect) -> str | None:
        """Store the member's value; a string that names no member is refused."""
        return None if value is None else self.enum_class(value).value

    def process_result_value(self, value: str | None, dialect: Dialect) -> E | None:
        """Turn the stored value back into its member."""
        return None if value is None else self.enum_class(value)


class ScheduleType(TypeDecorator[Schedule]):
    """A plan's ``Schedule`` stored in a plain string column as its ``encode`` form, read back
    as the value, its zone found once as the row is loaded."""

    impl = String
    cache_ok = True

    def __init__(self, length: int) -> None:
        super().__init__(length)
        self.length = length

    def process_bind_param(self, value: Schedule | None, dialect: Dialect) -> str | None:
        """Store the schedule's string form."""
        return None if value is None else value.encode()

    def process_result_value(self, value: str | None, dialect: Dialect) -> Schedule | None:
        """Read the stored form back into the value."""
        return None if value is None else Schedule.decode(value)
