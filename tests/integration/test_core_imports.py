"""What the core and the Slack app's pure parts import: no chat platform's library, no sandbox,
no Alembic, no prompt_toolkit.

The unit tier starts the core (``running_bot``) for every dialog test and reads the Slack
app's Block Kit and scopes, in seconds; a module among them that imported python-telegram-bot,
Bolt or FastAPI would cost each run a fair part of a second. It runs here, in a fresh
interpreter: the unit tier's own process has python-telegram-bot, for its pacing tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
# Alembic is for migrating: the unit tier takes its schema ready made (tests/schema.py);
# prompt_toolkit is for a terminal's prompt.
HEAVY = (
    "telegram",
    "slack_bolt",
    "slack_sdk",
    "aiohttp",
    "fastapi",
    "bot.sandbox",
    "alembic",
    "prompt_toolkit",
    "pywa",
    "pywa_async",
)


def _loaded(modules: str) -> list[str]:
    """Every module a fresh interpreter holds after importing ``modules``."""
    code = f"import sys, {modules}; print(*sorted(sys.modules))"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()


def test_the_core_and_the_dialog_harness_import_no_platform_nor_the_sandbox() -> None:
    loaded = _loaded("bot.bootstrap, bot.slack.render, bot.slack.scopes, tests.dialog_harness")
    assert "bot.bootstrap" in loaded
    assert [name for name in HEAVY if name in loaded] == []


def test_the_command_line_names_the_sandbox_without_serving_it() -> None:
    # Its help quotes the demo speed; the unit tier reads it for every platform.
    loaded = _loaded("bot.__main__")
    assert "bot.sandbox" in loaded
    assert [name for name in ("fastapi", "bot.sandbox.server") if name in loaded] == []


def test_importing_every_module_of_the_bot_starts_no_thread_and_makes_no_pool() -> None:
    # STYLE: importing creates nothing; a pool made at import outlives every stop.
    code = (
        "import gc, importlib, pkgutil, threading\n"
        "from concurrent.futures import Executor\n"
        "import bot\n"
        "before = threading.active_count()\n"
        "for info in pkgutil.walk_packages(bot.__path__, 'bot.'):\n"
        "    importlib.import_module(info.name)\n"
        "pools = [o for o in gc.get_objects() if isinstance(o, Executor)]\n"
        "print(before, threading.active_count(), len(pools))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    before, after, pools = map(int, out)
    assert (after, pools) == (before, 0)
