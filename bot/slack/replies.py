"""The core's answer to a slash command, a press or a form, shown to that user alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.core.events import ChatAddress
from bot.core.ports import MessengerError
from bot.core.richtext import paragraph
from bot.core.screens import Delete, Edit, Effect, Notice, Screen, Send, SendDocument
from bot.slack import render
from bot.slack.messenger import SlackMessenger

__all__ = ["Replies"]

_OK = 200


class Replies:
    """Carries out effects through the request's response URL: ephemeral, even where the bot
    is no member; the pressed message is replaced in place, files go to the user's DM."""

    def __init__(
        self,
        respond: AsyncRespond,
        messenger: SlackMessenger,
        chat: ChatAddress,
        *,
        pressed: str | None = None,
    ) -> None:
        self._respond = respond
        self._messenger = messenger
        self._chat = chat
        self._pressed = pressed

    async def perform(self, effects: Sequence[Effect]) -> None:
        """Carry out the effects in order."""
        for effect in effects:
            match effect:
                case Send(screen):
                    await self.show(screen)
                case Edit(message_id, screen) if message_id == self._pressed:
                    await self.show(screen, replace_original=True)
                case Edit(message_id, screen):
                    await self._messenger.edit(self._chat, message_id, screen)
                case Delete(message_id, note):
                    await self._messenger.delete(self._chat, message_id)
                    if note:
                        await self.show(Screen((paragraph(note),)))
                case SendDocument(document):
                    # A file cannot be ephemeral; the user's DM keeps it private.
                    direct = replace(self._chat, chat_id=self._chat.user_id or self._chat.chat_id)
                    await self._messenger.send_document(direct, document)
                case Notice(text):
                    await self.show(Screen((paragraph(text),)))

    async def show(self, screen: Screen, *, replace_original: bool = False) -> None:
        """Show a screen to the user alone, as a new message or in place of the pressed one."""
        answer = await self._respond(
            text=render.fallback_text(screen),
            blocks=render.to_blocks(screen),
            response_type="ephemeral",
            replace_original=replace_original,
        )
        if answer.status_code != _OK:
            raise MessengerError(f"the response URL answered {answer.status_code}")
