"""Telegram under abuse: files too large or too slow to read stall no one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.title_files import MAX_FILE_BYTES
from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


class LoopLag:
    """The longest the event loop went without running a ready task, while it watched."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, time.monotonic() - before - 0.005)

    async def __aenter__(self) -> LoopLag:
        self._task = asyncio.create_task(self._watch())
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def test_a_file_without_its_size_is_downloaded_no_further_than_the_limit(rig: Rig) -> None:
    await rig.log_in()
    huge = b"Bir baslik burada\n" * (64 * 1024 * 1024 // 18)
    sent = rig.telegram.user_sends_document(ALICE, "dev.txt", huge, size_shown=False)

    await rig.until(ALICE, "Dosya 1 MB'tan büyük", since=sent["message_id"])

    served = rig.telegram.served(sent["document"]["file_id"])
    assert served < len(huge) // 4, f"{served} of {len(huge)} bytes were read"


async def test_a_megabyte_of_empty_lines_does_not_stall_the_others(rig: Rig) -> None:
    await rig.log_in()
    await rig.says(BOB, "/yardim", "/yaz")

    async with LoopLag() as lag:
        sent = rig.telegram.user_sends_document(ALICE, "bos.txt", b"\n" * MAX_FILE_BYTES)
        await rig.until(ALICE, "edilebilecek başlık yok", since=sent["message_id"])

    assert lag.worst < 1.0, f"the event loop stalled {lag.worst:.1f} s"
