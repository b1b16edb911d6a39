"""A migrated SQLite schema, built once and copied for each test.

Running the migrations takes a fair part of a second; copying the file they leave takes
well under a millisecond. The template is kept in pytest's cache for the next run, under
a name that changes with anything that could change what the migrations build; each xdist
worker keeps one database open for the tests that take ``fresh_database()``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import tempfile
from functools import cache
from importlib.metadata import version
from pathlib import Path

from storage import Database

__all__ = ["fresh_database", "keep_templates_in", "migrated_sqlite", "scratch_folder"]

_STORAGE = Path(__file__).parents[1] / "storage"
# What the migrations run on: a new release of one may build another schema.
_BUILDERS = ("alembic", "sqlalchemy", "sqlmodel")
# Where templates outlive the process; none keeps each process building its own.
_shelves: list[Path] = []

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


def keep_templates_in(folder: Path) -> None:
    """Keep the migrated template in ``folder`` for later runs, and take it from there."""
    _shelves[:] = [folder]


def _schema_key() -> str:
    """A digest of what the template is built from: the storage package, whose migrations
    import its column types, and the versions of the libraries and of SQLite."""
    digest = hashlib.sha256()
    for path in sorted(_STORAGE.rglob("*.py")):
        digest.update(f"{path.relative_to(_STORAGE)}\0".encode())
        digest.update(path.read_bytes())
    for name in _BUILDERS:
        digest.update(f"{name} {version(name)}\0".encode())
    digest.update(sqlite3.sqlite_version.encode())
    return digest.hexdigest()[:16]


def _built() -> Path:
    path = Path(_template_home().name) / "template.db"
    database = Database.connect(f"sqlite:///{path}")
    try:
        database.migrate()
    finally:
        # Closing the last connection checkpoints the WAL into the file: the file is whole.
        database.dispose()
    return path


@cache
def _template() -> Path:
    if not _shelves:
        return _built()
    shelf = _shelves[0]
    kept = shelf / f"template-{_schema_key()}.db"
    if kept.exists():
        return kept
    # Put in place whole: other workers may be copying the name meanwhile.
    partial = shelf / f"{kept.name}.{os.getpid()}"
    shutil.copyfile(_built(), partial)
    partial.replace(kept)
    for stale in shelf.glob("template-*.db"):
        if stale != kept:
            stale.unlink(missing_ok=True)
    return kept


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
