"""What every Slack listener needs, put into Bolt's request context by name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from slack_bolt.context.async_context import AsyncBoltContext

from bot.core.conversation.events import Event, Origin
from bot.core.conversation.presenter import Presenter
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.limits.inflight import InFlight
from bot.core.ports import ChatPresenter
from bot.core.routing.conversations import Conversations
from bot.core.texts import Texts, texts_for
from bot.slack.home import HomeTab
from bot.slack.installations import Installations
from bot.slack.messenger import SlackMessenger
from bot.slack.texts import SlackTexts, slack_texts

__all__ = ["SlackDeps", "deps_of", "found_deps", "providing"]

_KEY = "makale_bot"


@dataclass(frozen=True, slots=True)
class SlackDeps:
    """The core, the messenger, and the language of what Slack shows before the core answers."""

    conversations: Conversations
    messenger: SlackMessenger
    language: str
    home: HomeTab
    # Where one deployment serves many workspaces: their installations.
    installations: Installations | None = None
    in_flight: InFlight = field(default_factory=InFlight)

    async def answer(self, origin: Origin, event: Event, presenter: Presenter) -> None:
        """Let the core answer, unless the user has too many requests under way (told once)."""
        if not self.in_flight.take(origin.user):
            if self.in_flight.first_refusal(origin.user):
                texts, _ = await self.speaking_to(origin)
                await presenter.send(Screen((paragraph(texts.too_fast),)))
            return
        try:
            await self.conversations.answer(origin, event, presenter)
        finally:
            self.in_flight.release(origin.user)

    @property
    def texts(self) -> Texts:
        """The core's texts in the bot's language (for failures outside the core)."""
        return texts_for(self.language)

    async def answer_in_chat(self, origin: Origin, event: Event) -> None:
        """Let the core answer with messages in the origin's chat (a DM): no response URL, so
        notices, which would be toasts, are posted too."""
        presenter = ChatPresenter(self.messenger, origin.chat)
        await self.answer(origin, event, presenter)
        for notice in presenter.notices:
            await self.messenger.send(origin.chat, Screen((paragraph(notice.text),)))

    async def speaking_to(self, origin: Origin) -> tuple[Texts, SlackTexts]:
        """The core's and Slack's texts in the language of this user."""
        language = await self.conversations.language(origin)
        return texts_for(language), slack_texts(language)


def providing(deps: SlackDeps) -> Callable[..., Awaitable[None]]:
    """A global middleware that hands ``deps`` to every listener of the request."""

    async def provide(context: AsyncBoltContext, next: Callable[[], Awaitable[None]]) -> None:
        context[_KEY] = deps
        await next()

    return provide


def found_deps(context: AsyncBoltContext) -> SlackDeps | None:
    """The dependencies, if the request got as far as the providing middleware."""
    deps = context.get(_KEY)
    return deps if isinstance(deps, SlackDeps) else None


def deps_of(context: AsyncBoltContext) -> SlackDeps:
    """The dependencies the providing middleware put into the context."""
    deps = found_deps(context)
    assert deps is not None, "the providing middleware runs before every listener"
    return deps
