"""The core's answer to a slash command, a press or a form, shown to that user alone."""

from __future__ import annotations

from dataclasses import replace

from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Document, Screen
from bot.core.ports import MessengerError, fitted
from bot.slack import render
from bot.slack.counting import count_sent
from bot.slack.messenger import SlackMessenger

__all__ = ["Replies"]

_OK = 200


class Replies:
    """Shows the core's answer through the request's response URL: ephemeral, even where the
    bot is no member; the pressed message is replaced in place, files go to the user's DM."""

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

    async def send(self, screen: Screen) -> None:
        """Show a new ephemeral message, in parts where it does not fit in one."""
        for part in fitted(self._messenger, screen):
            await self.show(part)

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Replace the pressed message in place (its first part; the rest follow); any other
        through the Web API."""
        if message_id != self._pressed:
            await self._messenger.edit(self._chat, message_id, screen)
            return
        first, *rest = fitted(self._messenger, screen)
        await self.show(first, replace_original=True)
        for part in rest:
            await self.show(part)

    async def delete(self, message_id: str) -> None:
        """Delete a message of the user's."""
        await self._messenger.delete(self._chat, message_id)

    async def send_document(self, document: Document) -> None:
        """Post the file in the user's DM: a file cannot be ephemeral, and the DM is private."""
        direct = replace(self._chat, chat_id=self._chat.user_id or self._chat.chat_id)
        await self._messenger.send_document(direct, document)

    async def notice(self, text: str) -> None:
        """Show the notice as an ephemeral message."""
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
        count_sent()
