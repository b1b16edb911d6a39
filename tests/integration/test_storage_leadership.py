"""The delivery lock: one holder per database at a time, freed when its holder goes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from storage import Database


def test_one_holder_at_a_time_and_the_next_takes_over_at_once(database_url: str) -> None:
    first, second = Database.connect(database_url), Database.connect(database_url)
    try:
        one, other = first.leadership("delivery-telegram"), second.leadership("delivery-telegram")
        assert one.acquire() is True
        assert one.acquire() is True, "confirming a held lock keeps it"
        assert other.acquire() is False
        assert second.leadership("delivery-slack").acquire() is True, "each name is its own"

        one.release()

        assert other.acquire() is True
    finally:
        first.dispose()
        second.dispose()


def test_a_killed_holder_frees_the_lock(database_url: str, tmp_path: Path) -> None:
    holder = tmp_path / "hold.py"
    holder.write_text(
        "import sys\n"
        "from storage import Database\n"
        "lock = Database.connect(sys.argv[1]).leadership('delivery-telegram')\n"
        "assert lock.acquire()\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    process = subprocess.Popen(
        [sys.executable, str(holder), database_url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    database = Database.connect(database_url)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "held"
        lock = database.leadership("delivery-telegram")
        assert lock.acquire() is False

        process.kill()
        process.wait(timeout=10)

        # PostgreSQL frees it once it sees the connection closed, a moment after the kill.
        assert _eventually(lock.acquire)
    finally:
        process.kill()
        database.dispose()


def _eventually(attempt: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Whether ``attempt`` succeeds within ``timeout`` seconds, tried every 50 ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if attempt():
            return True
        time.sleep(0.05)
    return False
