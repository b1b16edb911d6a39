"""Each chat's send budget, kept in the database so every replica draws from the same one.

A chat's token bucket is kept as GCRA keeps it: one timestamp, its next free send time
(``free_at``), on the database's clock, so the replicas' own clocks never meet. A send claims
a token with one statement: it moves ``free_at`` a step on when ``free_at`` is at most
``ahead`` seconds from now (the burst's room), and otherwise says how long until it is.
PostgreSQL only: SQLite serves one process, whose pacer keeps the bucket in memory.

The bot's own window ("at most 30 in any second") is kept the same way, as a ring of 30 rows
of this table, one per send the window can hold: a send takes the row free the longest and
keeps it for the window's length and the network's margin (or a window from its answer, when
that came later), so no two sends on one row, and so no 31 sends, fall within one window.
The rows are locked in one order, so the replicas' claims queue and never deadlock.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, text
from sqlmodel import Session, col

from storage.models import ChatPace

__all__ = ["claim", "claim_window", "hold", "prune_paces"]

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


_WINDOW_ROWS = text(
    """
    INSERT INTO chat_pace (key, free_at)
    SELECT slot, clock_timestamp() FROM unnest(CAST(:keys AS text[])) AS slot
    ON CONFLICT (key) DO NOTHING
    """
)

# The rows of the window, locked in key order; those free the longest are taken, up to
# ``want`` of them and as many as leave ``spare`` free (what a send leaves to answers), else
# how long until the ``spare``-th after the first is free too.
_CLAIM_WINDOW = text(
    """
    WITH slots AS (
        SELECT key, free_at FROM chat_pace
        WHERE key = ANY(CAST(:keys AS text[])) ORDER BY key FOR UPDATE
    ), ranked AS (
        SELECT key, free_at, row_number() OVER (ORDER BY free_at, key) AS n FROM slots
    ), free AS (
        SELECT count(*) AS places FROM ranked WHERE free_at <= clock_timestamp()
    ), taken AS (
        UPDATE chat_pace AS pace
        SET free_at = clock_timestamp() + make_interval(secs => :keep)
        FROM ranked, free
        WHERE pace.key = ranked.key AND ranked.n <= LEAST(:want, free.places - :spare)
        RETURNING pace.key AS place, NULL::float8 AS wait
    )
    SELECT place, wait FROM taken
    UNION ALL
    SELECT NULL, EXTRACT(EPOCH FROM ranked.free_at - clock_timestamp())::float8
    FROM ranked WHERE ranked.n = :spare + 1 AND NOT EXISTS (SELECT 1 FROM taken)
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


def claim_window(
    session: Session, *, keys: list[str], keep: float, spare: int, want: int = 1
) -> list[str] | float:
    """Take up to ``want`` sends of the window kept in the rows ``keys`` for ``keep``
    seconds, leaving ``spare`` of them free: the keys of the rows taken; else the seconds
    until one may be."""
    params = {"keys": keys, "keep": keep, "spare": spare, "want": want}
    rows = session.connection().execute(_CLAIM_WINDOW, params).all()
    if not rows:
        # The window's first use: its rows are made, all free now.
        session.connection().execute(_WINDOW_ROWS, {"keys": keys})
        rows = session.connection().execute(_CLAIM_WINDOW, params).all()
    if rows[0][0] is None:
        return max(0.0, float(rows[0][1]))
    return [str(place) for place, _ in rows]
