"""A migrated SQLite schema, built once per test process and copied for each test.

Running the migrations takes a fair part of a second; copying the file they leave takes
well under a millisecond. Every xdist worker builds its own template on first use, and
keeps one database open for the tests that take ``fresh_database()``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

from storage import Database

__all__ = ["fresh_database", "migrated_sqlite", "scratch_folder"]

# Memory-backed where the system has it: every commit's fsync is then free. Folders in it
# are made by mkdtemp, private to this user, as anywhere else.
_RAM = Path("/dev/shm")  # noqa: S108


def scratch_folder(prefix: str) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder in memory when the system offers one, else in the usual place."""
    memory = _RAM if _RAM.is_dir() and os.access(_RAM, os.W_OK) else None
    return tempfile.TemporaryDirectory(prefix=prefix, dir=memory)


@cache
def _template_home() -> tempfile.TemporaryDirectory[str]:
    # Cached so that it lives, and is removed, with the process.
    return scratch_folder("makale-schema-")


@cache
def _template() -> Path:
    path = Path(_template_home().name) / "template.db"
    database = Database.connect(f"sqlite:///{path}")
    try:
        database.migrate()
    finally:
        # Closing the last connection checkpoints the WAL into the file: the file is whole.
        database.dispose()
    return path


def migrated_sqlite(path: Path) -> str:
    """Put a database migrated to the newest revision at ``path``; its SQLite URL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_template(), path)
    return f"sqlite:///{path}"


def _kept_file() -> Path:
    return Path(_template_home().name) / "kept.db"


@cache
def _kept() -> Database:
    return Database.connect(f"sqlite:///{_kept_file()}")


def fresh_database() -> Database:
    """The process's kept database, its file put back to a copy of the template.

    Its engine, and the statements it has compiled, outlive the test: SQLAlchemy caches
    compiled SQL per engine, and compiling anew took a third of each dialog test. One test
    at a time uses it: dispose of it after the test (this disposes of it again before
    replacing the file).
    """
    database = _kept()
    database.dispose()
    path = _kept_file()
    # A write-ahead log left beside the file would be replayed onto the copy.
    for stale in path.parent.glob(f"{path.name}-*"):
        stale.unlink()
    migrated_sqlite(path)
    return database
