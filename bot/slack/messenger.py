"""Slack as the core's messenger: posts, edits, files, and the user's DM where a channel is shut."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.events import ChatAddress
from bot.core.pacing import Pacer, Window
from bot.core.ports import ChatUnreachable, MessengerError
from bot.core.screens import Document, Screen
from bot.slack import render
from bot.slack.ids import is_direct, message_id, split_message_id
from bot.slack.texts import SlackTexts

__all__ = ["SlackMessenger"]

log = logging.getLogger(__name__)

# The bot cannot post here (not invited, or no longer there); the user's DM still works.
_NOT_HERE = frozenset({"not_in_channel", "channel_not_found", "is_archived"})
# Answers that mean the conversation is gone for good, not a passing problem.
_GONE = _NOT_HERE | {"user_not_found", "account_inactive", "cannot_dm_bot", "user_disabled"}
# An edit or a delete of a message someone already deleted has nothing left to do.
_ALREADY_GONE = "message_not_found"
# Every way a call can fail: the async client lets its transport's errors through as they are.
_FAILURES = (SlackClientError, aiohttp.ClientError, TimeoutError)

# Slack allows about one message a second per channel, with short bursts.
CHANNEL_WINDOWS = (Window(3, 3.0),)

# Posts to (channel, thread ts or None, note or None) and returns the new message's id.
_Post = Callable[[str, str | None, str | None], Awaitable[str]]


def _error_code(err: SlackApiError) -> str:
    return str(err.response.get("error", ""))


def _translated(err: Exception) -> MessengerError:
    if isinstance(err, SlackApiError) and _error_code(err) in _GONE:
        return ChatUnreachable(_error_code(err))
    if isinstance(err, SlackApiError):
        return MessengerError(_error_code(err) or str(err))
    return MessengerError(repr(err))


def _target(chat: ChatAddress) -> tuple[str, str | None]:
    """The channel and thread ts to post in; a thread id naming its channel wins."""
    if chat.thread_id is None:
        return chat.chat_id, None
    channel, ts = split_message_id(chat.thread_id)
    return channel or chat.chat_id, ts


def _located(chat: ChatAddress, value: str) -> tuple[str, str]:
    channel, ts = split_message_id(value)
    return channel or chat.chat_id, ts


def _is_user(conversation: str) -> bool:
    return conversation.startswith(("U", "W"))


def _mention(chat: ChatAddress, channel: str, thread: str | None) -> str | None:
    """Who ordered, at the head of a top-level post in a shared channel."""
    if chat.user_id is None or thread is not None or is_direct(channel):
        return None
    return f"<@{chat.user_id}>"


class SlackMessenger:
    """Posts through the Web API; Slack's errors become the core's ``MessengerError``."""

    def __init__(self, client: AsyncWebClient, texts: SlackTexts) -> None:
        self._client = client
        self._texts = texts
        # Paced before each post or edit; a 429 left over is the client's retry handler's.
        self._pacer = Pacer()

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Post a message (in the chat's thread, if any); its id holds the channel it landed in."""

        async def post(channel: str, thread: str | None, note: str | None) -> str:
            mention = _mention(chat, channel, thread)
            await self._pacer.wait(channel, CHANNEL_WINDOWS)
            answer = await self._client.chat_postMessage(
                channel=channel,
                thread_ts=thread,
                text=render.fallback_text(screen, mention=mention),
                blocks=render.to_blocks(screen, mention=mention, note=note),
                unfurl_links=False,
                unfurl_media=False,
            )
            return message_id(str(answer["channel"]), str(answer["ts"]))

        return await self._posting(chat, post)

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Replace a message's text and buttons; a message or channel gone meanwhile is left be."""
        channel, ts = _located(chat, message_id)
        mention = _mention(chat, channel, None)
        await self._pacer.wait(channel, CHANNEL_WINDOWS)
        try:
            await self._client.chat_update(
                channel=channel,
                ts=ts,
                text=render.fallback_text(screen, mention=mention),
                blocks=render.to_blocks(screen, mention=mention),
            )
        except SlackApiError as err:
            code = _error_code(err)
            if code in _NOT_HERE:
                # Out of the channel: progress lines wait, the article goes to the DM.
                log.info("could not edit message %s: %s", message_id, code)
            elif code != _ALREADY_GONE:
                raise _translated(err) from err
        except _FAILURES as err:
            raise _translated(err) from err

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Delete one of the bot's messages; one already gone is fine."""
        channel, ts = _located(chat, message_id)
        try:
            await self._client.chat_delete(channel=channel, ts=ts)
        except SlackApiError as err:
            if _error_code(err) != _ALREADY_GONE:
                raise _translated(err) from err
        except _FAILURES as err:
            raise _translated(err) from err

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        """Upload a file into the chat (and thread), its caption as the comment."""

        async def post(channel: str, thread: str | None, note: str | None) -> str:
            comment = "\n".join(part for part in (note, render.escape(document.caption)) if part)
            await self._pacer.wait(channel, CHANNEL_WINDOWS)
            await self._client.files_upload_v2(
                channel=channel,
                thread_ts=thread,
                content=document.content,
                filename=document.filename,
                title=document.caption or document.filename,
                initial_comment=comment or None,
            )
            return ""

        await self._posting(chat, post)

    def fits(self, screen: Screen) -> bool:
        """Whether the screen renders as one message within Slack's block and text limits."""
        return render.fits(screen)

    async def _posting(self, chat: ChatAddress, post: _Post) -> str:
        """Post where the chat says; where the bot may not, in the user's DM with a note."""
        channel, thread = _target(chat)
        if _is_user(channel):
            # A user as the chat means their DM; a file upload takes only a channel id.
            channel = await self._direct_channel(channel)
        try:
            return await post(channel, thread, None)
        except SlackApiError as err:
            code = _error_code(err)
            if code not in _NOT_HERE or chat.user_id is None or is_direct(channel):
                raise _translated(err) from err
        except _FAILURES as err:
            raise _translated(err) from err
        log.info("cannot post in %s (%s); posting to the user's DM instead", channel, code)
        direct = await self._direct_channel(chat.user_id)
        note = self._texts.dm_note.format(channel=f"<#{channel}>")
        try:
            return await post(direct, None, note)
        except _FAILURES as err:
            raise _translated(err) from err

    async def _direct_channel(self, user_id: str) -> str:
        """The id of the user's DM with the bot (conversations.open)."""
        try:
            answer = await self._client.conversations_open(users=user_id)
        except _FAILURES as err:
            raise _translated(err) from err
        return str(answer["channel"]["id"])
