"""Whether one user's abuse holds up the bot: event-loop lag and memory under hostile input.

Two measures, each beside a reference taken in the same run:

- ``loop.lag``: the longest the event loop went without running a ready task while a
  1 MB file of empty lines and a ``.zip`` of 100 articles were handled through the core
  (the bot wired by ``bootstrap``, SQLite, the sandbox on loopback), against the longest
  over as long a time with the loop idle;
- ``slack.rss``: the growth of the resident memory (``VmHWM``, its peak) of
  ``python -m bot slack`` while ten unsigned 300 MB bodies arrive at once on
  ``/slack/events`` (half announced by ``Content-Length``, half chunked), against its
  growth over as long a time idle.

    .venv/bin/python -m bench.abuse [--smoke] [--out bench/abuse-results.json]
        [--articles 100] [--bodies 10] [--body-megabytes 300]

(from the project's folder: it imports the fake Slack from tests/e2e). See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx

from bench import forked
from bench.order_flow import NullMessenger
from bot.bootstrap import running_bot
from bot.config import load_settings
from bot.core.conversation.events import ChatAddress, Command, Event, Origin, Press, Upload, UserKey
from bot.core.conversation.screens import Edit, Effect, Send, SendDocument
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, running_sandbox
from storage import generate_key
from tests.e2e.fake_slack import FakeSlack
from tests.loop_lag import LoopLag
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
MEGABYTE = 1024 * 1024
PLATFORM = "bench"
TOKEN, SECRET = "xoxb-1-bench-token", "bench-signing-secret"
START_TIMEOUT = 30.0


@dataclass(frozen=True)
class Sizes:
    """How much of each abuse a run sends."""

    articles: int = 100
    bodies: int = 10
    body_megabytes: int = 300


SMOKE = Sizes(articles=5, bodies=4, body_megabytes=3)


@dataclass(frozen=True)
class Measure:
    """One figure beside its reference from the same run, and the goal it is held to."""

    key: str
    name: str
    value: float
    reference: float
    goal: str
    met: bool


def _button(effects: Sequence[Effect], label: str) -> str:
    for effect in effects:
        if isinstance(effect, Send | Edit):
            for row in effect.screen.buttons:
                for button in row:
                    if button.label == label or button.label.startswith(f"{label} ·"):
                        return button.data
    raise LookupError(label)


async def _lag_of(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """The worst loop lag during ``work``, and its time."""
    started = time.perf_counter()
    async with LoopLag() as lag:
        await work()
    return lag.worst, time.perf_counter() - started


async def loop_lag(folder: Path, sizes: Sizes) -> Measure:
    """Lag while a 1 MB title file and a zip of ``sizes.articles`` articles are handled."""
    async with running_sandbox(speed=10_000.0) as sandbox:
        sandbox.state.set_balance(DEMO_EMAIL, Decimal(10**6))
        settings = load_settings(
            _env_file=None,
            article_api_url=sandbox.url,
            database_url=f"sqlite:///{folder / 'bot.db'}",
            token_encryption_key=generate_key(),
        )
        async with running_bot(settings) as bot:
            bot.messengers[PLATFORM] = NullMessenger()
            origin = Origin(UserKey(PLATFORM, "u1"), ChatAddress(PLATFORM, "chat-u1"))

            async def say(event: Event) -> list[Effect]:
                return await bot.conversations.handle(origin, event)

            await say(Command("giris", f"{DEMO_EMAIL} {DEMO_PASSWORD}"))
            # The service takes 20 articles an order at most.
            for first in range(0, sizes.articles, 20):
                numbers = range(first, min(first + 20, sizes.articles))
                titles = "\n".join(f"Yapay zekâ üzerine yazı numarası {n}" for n in numbers)
                tones = await say(Upload("basliklar.txt", titles.encode(), len(titles.encode())))
                size_screen = await say(Press(_button(tones, "Samimi"), "1"))
                summary = await say(Press(_button(size_screen, "Kısa"), "1"))
                await say(Press(_button(summary, "Onayla"), "1"))
            sandbox.state.clock.advance(24 * 3600)

            async def abuse() -> None:
                empty = b"\n" * MEGABYTE
                await say(Upload("bos.txt", empty, len(empty)))
                listed = await say(Command("makalelerim"))
                archived = await say(Press(_button(listed, "📦 Son 30 gün (.zip)"), "1"))
                assert any(isinstance(e, SendDocument) for e in archived), archived

            worst, took = await _lag_of(abuse)
            idle, _ = await _lag_of(lambda: asyncio.sleep(took))
    return Measure(
        "loop.lag",
        f"event-loop lag (ms): a 1 MB title file and a zip of {sizes.articles} articles",
        worst * 1000,
        idle * 1000,
        "< 100 ms",
        worst < 0.1,
    )


def peak_rss_kb(pid: int) -> int:
    """The process's peak resident memory so far (``VmHWM``), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise LookupError("VmHWM")


@contextlib.asynccontextmanager
async def slack_process(folder: Path, *, fork: bool) -> AsyncIterator[tuple[int, int]]:
    """``python -m bot slack`` against the fake Slack and the sandbox: its pid and port.

    The smoke run (``fork``) forks it from a server that has imported the bot already."""
    port = free_port()
    async with (
        FakeSlack.running(bot_token=TOKEN, signing_secret=SECRET) as slack,
        running_sandbox() as sandbox,
    ):
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = {
            **os.environ,
            "PYTHONPATH": path,
            "SLACK_BOT_TOKEN": TOKEN,
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": slack.api_url,
            "ARTICLE_API_URL": sandbox.url,
            "DATABASE_URL": f"sqlite:///{folder / 'bot.db'}",
            "TOKEN_ENCRYPTION_KEY": generate_key(),
            "PORT": str(port),
            "LOG_LEVEL": "ERROR",
        }
        process = await forked.started(["bot", "slack"], env, folder, folder / "bot.log", fork=fork)
        try:
            await _until_healthy(port, process)
            yield process.pid, port
        finally:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


async def _until_healthy(port: int, process: asyncio.subprocess.Process | forked.Child) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    async with httpx.AsyncClient(timeout=2) as http:
        while time.monotonic() < deadline:
            if process.returncode is not None:
                raise RuntimeError(f"the bot exited with {process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(f"http://127.0.0.1:{port}/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise TimeoutError("the bot did not start")


async def unsigned_post(port: int, megabytes: int, *, chunked: bool) -> str:
    """POST ``megabytes`` of junk to /slack/events until answered; the status line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    length = megabytes * MEGABYTE
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {length}"
    head = f"POST /slack/events HTTP/1.1\r\nHost: bench\r\n{framing}\r\n\r\n"
    answer = asyncio.create_task(reader.readline())
    chunk = b"x" * 65536
    framed = b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk
    try:
        writer.write(head.encode())
        for _ in range(length // len(chunk)):
            if answer.done():
                break
            writer.write(framed)
            await writer.drain()
        if chunked and not answer.done():
            writer.write(b"0\r\n\r\n")
        status = (await asyncio.wait_for(answer, 60)).decode().strip()
    except ConnectionError:
        status = (await answer).decode().strip() if answer.done() else "reset"
    finally:
        answer.cancel()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    return status


async def slack_rss(folder: Path, sizes: Sizes, *, fork: bool) -> Measure:
    """Peak memory growth while unsigned bodies of ``sizes.body_megabytes`` arrive at once."""
    async with slack_process(folder, fork=fork) as (pid, port):
        before = peak_rss_kb(pid)
        started = time.perf_counter()
        statuses = await asyncio.gather(
            *(
                unsigned_post(port, sizes.body_megabytes, chunked=bool(n % 2))
                for n in range(sizes.bodies)
            )
        )
        took = time.perf_counter() - started
        grown = peak_rss_kb(pid) - before
        idle_before = peak_rss_kb(pid)
        await asyncio.sleep(took)
        idle = peak_rss_kb(pid) - idle_before
    print(f"[slack.rss answers: {sorted(set(statuses))}]", file=sys.stderr)
    return Measure(
        "slack.rss",
        f"Slack process peak RSS growth (MB): {sizes.bodies} unsigned "
        f"{sizes.body_megabytes} MB bodies at once",
        grown / 1024,
        idle / 1024,
        "< 20 MB",
        grown / 1024 < 20,
    )


def show(measures: Sequence[Measure]) -> str:
    lines = [f"{'measure':<82} {'value':>9} {'reference':>9}  goal"]
    for m in measures:
        mark = "met" if m.met else "MISSED"
        lines.append(f"{m.name:<82} {m.value:>9.2f} {m.reference:>9.2f}  {m.goal} {mark}")
    return "\n".join(lines)


async def run(sizes: Sizes, *, fork: bool) -> list[Measure]:
    with tempfile.TemporaryDirectory(prefix="abuse-bench-") as folder:
        lag_folder, rss_folder = Path(folder) / "lag", Path(folder) / "rss"
        lag_folder.mkdir()
        rss_folder.mkdir()
        return [
            await loop_lag(lag_folder, sizes),
            await slack_rss(rss_folder, sizes, fork=fork),
        ]


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, a few seconds")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "abuse-results.json")
    for name, value in asdict(Sizes()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value))
    options = parser.parse_args(argv)
    base = SMOKE if options.smoke else Sizes()
    chosen = {k: getattr(options, k) for k in asdict(base) if getattr(options, k) is not None}
    sizes = Sizes(**{**asdict(base), **chosen})
    if options.smoke:
        forked.start_server()
    measures = asyncio.run(run(sizes, fork=options.smoke))
    print(show(measures))
    report = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "command": " ".join(["python -m bench.abuse", *argv]),
        "sizes": asdict(sizes),
        "measures": [asdict(m) for m in measures],
    }
    options.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
