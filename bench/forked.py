"""``python -m MODULE ARGS...`` as a child forked from a server that has imported the bot once.

Each child of a benchmark would spend about two seconds of CPU importing the bot before it
runs; the delivery benchmark's smoke run starts eight of them, the abuse benchmark's one. A
fork server (``multiprocessing``'s ``forkserver``, started before any event loop or thread)
imports the bot and the benchmark once, and each child, a fresh process forked from it, runs
the module as ``python -m`` would: its own environment, folder, log and command line, and
signals as a process gets them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import runpy
import subprocess
import sys
from collections.abc import Sequence
from multiprocessing import forkserver
from pathlib import Path

# What every child imports: the bot's command line and the benchmark's own commands.
PRELOAD = ["bot.__main__", "bench.delivery"]
_CONTEXT = multiprocessing.get_context("forkserver")


def start_server() -> None:
    """Start the fork server; its import of the bot runs beside the caller's work."""
    _CONTEXT.set_forkserver_preload(PRELOAD)
    forkserver.ensure_running()


def _run_module(module: str, args: Sequence[str], env: dict[str, str], cwd: str, log: str) -> None:
    """In the child: become ``python -m module args`` in ``cwd``, writing to ``log``."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


async def started(
    command: Sequence[str], env: dict[str, str], cwd: Path, log: Path, *, fork: bool
) -> asyncio.subprocess.Process | Child:
    """``python -m *command`` in ``cwd``, writing to ``log``: forked from the server (``fork``),
    else in a fresh interpreter, as production starts it."""
    if fork:
        child = Child(command[0], command[1:], env, cwd, log)
        await child.start()
        return child
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            *command,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
        )


class Child:
    """A forked child, with the part of ``asyncio.subprocess.Process`` the benchmark uses."""

    def __init__(
        self, module: str, args: Sequence[str], env: dict[str, str], cwd: Path, log: Path
    ) -> None:
        self._process = _CONTEXT.Process(
            target=_run_module, args=(module, list(args), env, str(cwd), str(log))
        )

    async def start(self) -> None:
        # The first start waits for the server's imports: not on the event loop.
        await asyncio.to_thread(self._process.start)

    @property
    def pid(self) -> int:
        pid = self._process.pid
        assert pid is not None, "not started"
        return pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()

    async def wait(self) -> int:
        loop = asyncio.get_running_loop()
        ended = loop.create_future()
        sentinel = self._process.sentinel
        loop.add_reader(sentinel, lambda: ended.done() or ended.set_result(None))
        try:
            await ended
        finally:
            loop.remove_reader(sentinel)
        self._process.join()
        code = self._process.exitcode
        assert code is not None
        return code
