"""The chats this process can write to: each platform's messenger, as its adapter registers it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Button, Screen
from bot.core.ports import Messenger, fitted

__all__ = ["Messengers"]


class Messengers:
    """The messengers by platform; adapters add theirs as they start, so it is read live."""

    def __init__(self, by_platform: Mapping[str, Messenger]) -> None:
        self._by_platform = by_platform

    @property
    def platforms(self) -> frozenset[str]:
        """The platforms this process has a messenger for."""
        return frozenset(self._by_platform)

    def __getitem__(self, platform: str) -> Messenger:
        return self._by_platform[platform]

    def get(self, platform: str) -> Messenger | None:
        """The platform's messenger, or None where this process does not serve it."""
        return self._by_platform.get(platform)

    def article_screens(
        self, platform: str, blocks: Sequence[Block], buttons: tuple[Button, ...] = ()
    ) -> list[Screen]:
        """An article's blocks as messages that each fit the platform's limit; the buttons (one
        row) go with the last."""
        return fitted(
            self._by_platform[platform], Screen(tuple(blocks), (buttons,) if buttons else ())
        )
