"""The command line of the stand-alone sandbox."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Sequence

from bot.sandbox.clock import DEMO_SPEED
from bot.sandbox.server import serve_forever

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot sandbox") -> None:
    """Parse the sandbox options in `argv` and serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="A fake article service for demos.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8081, help="port to listen on (0: any free)")
    parser.add_argument(
        "--speed", type=float, default=DEMO_SPEED, help="how much faster jobs finish than real"
    )
    parser.add_argument("--seed", type=int, default=0, help="makes durations and failures repeat")
    parser.add_argument(
        "--failure-rate", type=float, default=0.0, help="share of jobs that fail (0 to 1)"
    )
    args = parser.parse_args(argv)
    # uvicorn shuts down gracefully on Ctrl+C, then re-raises it for the caller.
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_forever(args.host, args.port, args.speed, args.seed, args.failure_rate))
