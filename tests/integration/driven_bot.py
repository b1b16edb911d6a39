"""The dialog harness for synchronous callers (hypothesis): a loop of its own, run per step."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import settings

from bot.core.conversation.events import Event
from bot.core.conversation.screens import Effect
from tests.dialog_harness import Chat, Harness, harness

T = TypeVar("T")


def examples(share: float) -> int:
    """A share of the active profile's examples, for tests whose examples cost a bot turn each."""
    return max(10, int(settings.default.max_examples * share))


@dataclass
class DrivenBot:
    """The harness on a loop of its own; each call runs the loop until its answer is there."""

    loop: asyncio.AbstractEventLoop
    h: Harness

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    def send(self, chat: Chat, event: Event) -> list[Effect]:
        return self.run(chat.send(event))

    def say(self, chat: Chat, line: str) -> list[Effect]:
        return self.run(chat.say(line))


@contextmanager
def driven_bot(tmp_path: Path) -> Iterator[DrivenBot]:
    """A sandbox and a bot on their own event loop, for tests that are not coroutines."""
    loop = asyncio.new_event_loop()
    running = harness(tmp_path)
    try:
        yield DrivenBot(loop, loop.run_until_complete(running.__aenter__()))
    finally:
        loop.run_until_complete(running.__aexit__(None, None, None))
        loop.close()
