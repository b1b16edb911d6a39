"""A stand-alone fake of the article service, for demos and tests.

It serves the interface's paths and shapes from memory: seeded accounts, JWT
access tokens and rotating refresh tokens, charging, and jobs that progress on
a clock that tests can move forward. Fault switches make it fail the ways the
real service may. It imports nothing from the rest of ``bot``.
"""

from bot.sandbox.accounts import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    LOW_BALANCE_EMAIL,
    LOW_BALANCE_PASSWORD,
)
from bot.sandbox.app import create_app
from bot.sandbox.cli import main
from bot.sandbox.server import DEMO_SPEED, RunningSandbox, running_sandbox, serve_forever
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
