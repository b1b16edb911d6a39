"""Each chat's send budget, kept in the database so every replica draws from the same one.

A chat's token bucket is kept as GCRA keeps it: one timestamp, its next free send time
(``free_at``), on the database's clock, so the replicas' own clocks never meet. A send claims
a token with one statement: it moves ``free_at`` a step on when ``free_at`` is at most
``ahead`` seconds from now (the burst's room), and otherwise says how long until it is.
PostgreSQL only: SQLite serves one process, whose pacer keeps the bucket in memory.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, text
from sqlmodel import Session, col

from storage.models import ChatPace

__all__ = ["claim", "hold", "prune_paces"]

# One round trip whether it claims or not: the CTE claims (or creates the chat's row), and
# when it did not, the chat's row says how long until it would.
_CLAIM = text(
    """
    WITH claimed AS (
        INSERT INTO chat_pace AS pace (key, free_at)
        VALUES (:key, clock_timestamp() + make_interval(secs => :step))
        ON CONFLICT (key) DO UPDATE
            SET free_at = GREATEST(pace.free_at, clock_timestamp())
                + make_interval(secs => :step)
            WHERE pace.free_at <= clock_timestamp() + make_interval(secs => :ahead)
        RETURNING NULL::float8 AS wait
    )
    SELECT wait FROM claimed
    UNION ALL
    SELECT EXTRACT(EPOCH FROM pace.free_at - clock_timestamp())::float8 - :ahead
    FROM chat_pace AS pace
    WHERE pace.key = :key AND NOT EXISTS (SELECT 1 FROM claimed)
    """
)

_HOLD = text(
    """
    INSERT INTO chat_pace AS pace (key, free_at)
    VALUES (:key, clock_timestamp() + make_interval(secs => :seconds))
    ON CONFLICT (key) DO UPDATE SET free_at = GREATEST(pace.free_at, excluded.free_at)
    """
)


def claim(session: Session, *, key: str, step: float, ahead: float) -> float | None:
    """Take one send of ``key``'s bucket if it has room now (None); else the seconds until
    it has."""
    wait = session.connection().execute(_CLAIM, {"key": key, "step": step, "ahead": ahead})
    found = wait.scalar_one()
    return None if found is None else max(0.0, float(found))


def hold(session: Session, *, key: str, seconds: float) -> None:
    """Move ``key``'s next free send time to at least ``seconds`` from now."""
    session.connection().execute(_HOLD, {"key": key, "seconds": seconds})


def prune_paces(session: Session, *, before: datetime) -> int:
    """Forget the chats whose bucket was full again before ``before``: a claim finds such a
    chat as it finds a new one. How many were forgotten."""
    result = session.exec(delete(ChatPace).where(col(ChatPace.free_at) < before))
    return result.rowcount
