"""Calls worth retrying: a failure is logged as a warning and tried again later, with a wait
that doubles up to a cap (or what the platform asked for, when longer).

The platforms answer 5xx and 429 now and then, at start-up too. A call the bot can live
without (the command menu) is never a reason to stop: it is retried in the background until
it passes. A call the bot needs (its webhook) is retried a few times before it gives up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

__all__ = [
    "FIRST_WAIT",
    "MAX_WAIT",
    "StoppedWhileStarting",
    "best_effort",
    "retried",
    "retried_until_stop",
]

log = logging.getLogger(__name__)

FIRST_WAIT = 1.0
MAX_WAIT = 300.0

_Call = Callable[[], Awaitable[object]]
_Sleep = Callable[[float], Awaitable[None]]


def _asked_wait(err: Exception) -> float:
    """The wait a 429 asked for (``retry_after``), in seconds; 0 without one."""
    asked = getattr(err, "retry_after", None)
    if isinstance(asked, timedelta):
        return asked.total_seconds()
    return float(asked) if isinstance(asked, int | float) else 0.0


async def retried(
    what: str,
    call: _Call,
    *,
    attempts: int | None = None,
    passing: tuple[type[Exception], ...] = (Exception,),
    refused: tuple[type[Exception], ...] = (),
    first_wait: float = FIRST_WAIT,
    sleep: _Sleep = asyncio.sleep,
) -> None:
    """Make the call until it passes; after ``attempts`` failures (never, when None) the last
    failure is raised, and at once a failure that is not ``passing`` or is ``refused`` (a
    refused request).
    Each failure is a warning, not an error: the call is tried again."""
    wait, failures = first_wait, 0
    while True:
        try:
            await call()
            return
        except passing as err:
            if isinstance(err, refused):
                raise
            failures += 1
            if attempts is not None and failures >= attempts:
                raise
            pause = max(wait, _asked_wait(err))
            log.warning(
                "%s failed (%s: %s); trying again in %.0f s", what, type(err).__name__, err, pause
            )
        await sleep(pause)
        wait = min(wait * 2, MAX_WAIT)


class StoppedWhileStarting(Exception):
    """The process was told to stop while a platform was still waiting to start (its API
    could not be reached): a stop like any other, not a failure."""


async def retried_until_stop(
    what: str,
    call: _Call,
    *,
    stop: asyncio.Event,
    passing: tuple[type[Exception], ...],
    refused: tuple[type[Exception], ...] = (),
) -> None:
    """``retried`` without a limit, for a call a start cannot do without; raise
    ``StoppedWhileStarting`` when ``stop`` is set meanwhile (SIGTERM during the waits)."""
    trying = asyncio.ensure_future(retried(what, call, passing=passing, refused=refused))
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait((trying, stopping), return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if trying.done():
        trying.result()
        return
    trying.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await trying
    raise StoppedWhileStarting(what)


async def best_effort(
    what: str, call: _Call, *, first_wait: float = FIRST_WAIT
) -> asyncio.Task[None] | None:
    """Make the call now; if it fails, keep retrying it in the background: that task (for the
    caller to cancel at its stop), else None."""
    try:
        await call()
        return None
    except Exception as err:  # noqa: BLE001 - a nice-to-have call never stops the bot
        log.warning("%s failed (%r); trying again in the background", what, err)

    async def later() -> None:
        await asyncio.sleep(first_wait)
        await retried(what, call, first_wait=first_wait * 2)

    return asyncio.create_task(later(), name=what)
