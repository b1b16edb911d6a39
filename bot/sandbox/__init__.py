"""A stand-alone fake of the article service, for demos and tests.

It serves the interface's paths and shapes from memory: seeded accounts, JWT
access tokens and rotating refresh tokens, charging, and jobs that progress on
a clock that tests can move forward. Fault switches make it fail the ways the
real service may. It imports nothing from the rest of ``bot``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from bot.sandbox.accounts import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    LOW_BALANCE_EMAIL,
    LOW_BALANCE_PASSWORD,
)
from bot.sandbox.clock import DEMO_SPEED

if TYPE_CHECKING:
    from bot.sandbox.app import create_app
    from bot.sandbox.cli import main
    from bot.sandbox.server import RunningSandbox, running_sandbox, serve_forever
    from bot.sandbox.state import SandboxState

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "DEMO_SPEED",
    "LOW_BALANCE_EMAIL",
    "LOW_BALANCE_PASSWORD",
    "RunningSandbox",
    "SandboxState",
    "create_app",
    "main",
    "running_sandbox",
    "serve_forever",
]

# The server's names, and FastAPI and uvicorn with them, load when first asked for: the
# bot's command line quotes the demo account and speed in its help, and needs no more.
_SERVING = {
    "create_app": "bot.sandbox.app",
    "main": "bot.sandbox.cli",
    "RunningSandbox": "bot.sandbox.server",
    "running_sandbox": "bot.sandbox.server",
    "serve_forever": "bot.sandbox.server",
    "SandboxState": "bot.sandbox.state",
}


def __getattr__(name: str) -> object:
    """One of the server's names, imported on first use."""
    if name not in _SERVING:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_SERVING[name]), name)
