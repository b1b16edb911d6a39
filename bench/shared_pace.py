"""What the shared pace costs each send: the claims a replica makes on PostgreSQL.

Times, one after another and uncontended, the chat's claim (one row), the claim of a place
in the bot's window (the ring of 30 rows), and a whole ``Pacer.wait`` with both, against the
same wait kept in memory (SQLite's one process). Each in a schema of its own, dropped after.

    .venv/bin/python -m bench.shared_pace [--sends 400]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable

from bot.core.limits.pacing import Bucket, Pacer, Priority, Window, paced_as
from bot.core.limits.shared_pace import DatabasePace
from storage import Database

# The tests' server, unless BENCH_DATABASE_URL names another.
LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
# Limits of Telegram's shape, refilled fast enough that no send waits: only its cost is
# measured (and no margin is kept, which would make the window wait).
ROOMY = Bucket(3, 1e6)
ROOMY_WINDOW = (Window(30, 1e-3),)


async def timed(sends: int, send: Callable[[int], Awaitable[object]]) -> tuple[float, float]:
    """The median and p95 of ``sends`` sends, in milliseconds."""
    took = []
    for n in range(sends):
        started = time.perf_counter()
        await send(n)
        took.append((time.perf_counter() - started) * 1000)
    ordered = sorted(took)
    return statistics.median(ordered), ordered[int(0.95 * len(ordered)) - 1]


async def measure(db: Database, sends: int) -> dict[str, tuple[float, float]]:
    """Each way of pacing a send, timed."""
    pace = DatabasePace(db, "bench")
    shared = Pacer(ROOMY_WINDOW, margin=0.0, shared=pace)
    alone = Pacer(ROOMY_WINDOW, margin=0.0)
    keep = ROOMY_WINDOW[0].seconds
    with paced_as(Priority.ANSWER):
        return {
            "chat's claim (one row)": await timed(sends, lambda n: pace.claim(n, 1e-6, 1.0)),
            "window's claim (ring of 30)": await timed(
                sends, lambda n: pace.claim_window(30, keep, 0, rank=(0, 0), sleep=asyncio.sleep)
            ),
            "Pacer.wait, shared (both)": await timed(
                sends, lambda n: shared.wait(n % 1000 + 10_000, (ROOMY,))
            ),
            "Pacer.wait, in memory": await timed(sends, lambda n: alone.wait(n, (ROOMY,))),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=400)
    sends = parser.parse_args().sends
    schema = f"bench_pace_{secrets.token_hex(4)}"
    server = os.environ.get("BENCH_DATABASE_URL", LOCAL_SERVER)
    admin = Database.connect(server)
    admin.run_sync(lambda s: s.connection().exec_driver_sql(f"CREATE SCHEMA {schema}"))
    db = Database.connect(f"{server}?options=-csearch_path%3D{schema}")
    try:
        db.migrate()
        results = asyncio.run(measure(db, sends))
    finally:
        db.dispose()
        admin.run_sync(lambda s: s.connection().exec_driver_sql(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
    load = os.getloadavg()[0]
    print(f"{'each send':<32} {'median ms':>10} {'p95 ms':>8}   ({sends} sends, load {load:.1f})")
    for name, (median, high) in results.items():
        print(f"{name:<32} {median:>10.2f} {high:>8.2f}")


if __name__ == "__main__":
    main()
