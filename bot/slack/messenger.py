"""Slack as the core's messenger: posts, edits, files, and the user's DM where a channel is shut."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Screen
from bot.core.limits.pacing import Pacer, Window
from bot.core.ports import ChatUnreachable, MessengerError, PostingRefused
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
# A token that a reinstall replaced (or revoked) while a call that carried it was on its way.
_STALE_TOKEN = frozenset({"invalid_auth", "token_revoked"})
# What chat.postEphemeral's refusal says of a plan's channel (no scope beyond chat:write).
_REFUSALS = {
    "channel_not_found": PostingRefused.NOT_MEMBER,
    "not_in_channel": PostingRefused.NOT_MEMBER,
    "is_archived": PostingRefused.ARCHIVED,
    "restricted_action": PostingRefused.NO_RIGHTS,
    "user_not_in_channel": PostingRefused.OWNER_LEFT,
}
T = TypeVar("T")
# Every way a call can fail: the async client lets its transport's errors through as they are.
_FAILURES = (SlackClientError, aiohttp.ClientError, TimeoutError)

# Slack allows about one message a second per channel, with short bursts.
CHANNEL_WINDOWS = (Window(3, 3.0),)

# Posts with a client to (channel, thread ts or None, note or None); the new message's id.
_Post = Callable[[str, str | None, str | None], Awaitable[str]]
# A workspace's bot token as stored at this moment; None where the app is not installed.
TokenOf = Callable[[str], Awaitable[str | None]]
_NOT_INSTALLED = "not_installed"


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

    def __init__(
        self, client: AsyncWebClient, texts: SlackTexts, token_of: TokenOf | None = None
    ) -> None:
        self._client = client
        self._texts = texts
        # Many workspaces: each call asks for its chat's token then, never keeping one, since
        # another replica may have stored a newer one (a reinstall) or removed it.
        self._token_of = token_of
        # Paced before each post or edit; a 429 left over is the client's retry handler's.
        self._pacer = Pacer()
        # Told of each file sent to a user (an article delivered, a zip), e.g. to refresh
        # their Home tab.
        self.file_sent: Callable[[ChatAddress], None] | None = None

    async def client_for(self, chat: ChatAddress) -> AsyncWebClient:
        """The Web API client with the token of the chat's workspace."""
        if self._token_of is None:
            return self._client
        token = await self._token_of(chat.workspace)
        if token is None:
            raise ChatUnreachable(_NOT_INSTALLED)
        base = self._client
        return AsyncWebClient(
            token=token,
            base_url=base.base_url,
            timeout=base.timeout,
            logger=base.logger,
            retry_handlers=base.retry_handlers,
        )

    async def _paced(
        self, chat: ChatAddress, channel: str, call: Callable[[AsyncWebClient], Awaitable[T]]
    ) -> T:
        """Make the call in the channel's turn, with its workspace's token as stored then; once
        more with the new token where a reinstall replaced the one it carried meanwhile."""
        await self._pacer.wait(self._pace_key(chat, channel), CHANNEL_WINDOWS)
        client = await self.client_for(chat)
        try:
            return await call(client)
        except SlackApiError as err:
            if self._token_of is None or _error_code(err) not in _STALE_TOKEN:
                raise
            fresh = await self.client_for(chat)
            if fresh.token == client.token:
                raise
            return await call(fresh)

    def _pace_key(self, chat: ChatAddress, channel: str) -> str:
        # Channel ids are unique per workspace only; one workspace's need no prefix.
        return channel if self._token_of is None else f"{chat.workspace}/{channel}"

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Post a message (in the chat's thread, if any); its id holds the channel it landed in."""

        async def post(channel: str, thread: str | None, note: str | None) -> str:
            mention = _mention(chat, channel, thread)
            answer = await self._paced(
                chat,
                channel,
                lambda client: client.chat_postMessage(
                    channel=channel,
                    thread_ts=thread,
                    text=render.fallback_text(screen, mention=mention),
                    blocks=render.to_blocks(screen, mention=mention, note=note),
                    unfurl_links=False,
                    unfurl_media=False,
                ),
            )
            return message_id(str(answer["channel"]), str(answer["ts"]))

        return await self._posting(chat, post)

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Replace a message's text and buttons; a message or channel gone meanwhile is left be."""
        channel, ts = _located(chat, message_id)
        mention = _mention(chat, channel, None)
        try:
            await self._paced(
                chat,
                channel,
                lambda client: client.chat_update(
                    channel=channel,
                    ts=ts,
                    text=render.fallback_text(screen, mention=mention),
                    blocks=render.to_blocks(screen, mention=mention),
                ),
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

    async def may_post(self, chat: ChatAddress, owner: str) -> PostingRefused | None:
        """Whether the bot may still post to the channel and ``owner`` is in it: a line shown to
        the owner alone there, which Slack refuses as it would a post. A passing failure
        raises ``MessengerError``, so the run is tried again."""
        channel = chat.chat_id
        if is_direct(channel) or _is_user(channel):
            return None
        text = self._texts.plan_check
        try:
            await self._paced(
                chat,
                channel,
                lambda client: client.chat_postEphemeral(channel=channel, user=owner, text=text),
            )
        except SlackApiError as err:
            refused = _REFUSALS.get(_error_code(err))
            if refused is None:
                raise _translated(err) from err
            return refused
        except ChatUnreachable:
            # The app was removed from the workspace.
            return PostingRefused.NOT_MEMBER
        except _FAILURES as err:
            raise _translated(err) from err
        return None

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Delete one of the bot's messages; one already gone is fine."""
        channel, ts = _located(chat, message_id)
        client = await self.client_for(chat)
        try:
            await client.chat_delete(channel=channel, ts=ts)
        except SlackApiError as err:
            if _error_code(err) != _ALREADY_GONE:
                raise _translated(err) from err
        except _FAILURES as err:
            raise _translated(err) from err

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        """Upload a file into the chat (and thread), its caption as the comment."""

        async def post(channel: str, thread: str | None, note: str | None) -> str:
            comment = "\n".join(part for part in (note, render.escape(document.caption)) if part)
            await self._paced(
                chat,
                channel,
                lambda client: client.files_upload_v2(
                    channel=channel,
                    thread_ts=thread,
                    content=document.content,
                    filename=document.filename,
                    title=document.caption or document.filename,
                    initial_comment=comment or None,
                ),
            )
            return ""

        await self._posting(chat, post)
        if self.file_sent is not None:
            self.file_sent(chat)

    async def publish_home(self, chat: ChatAddress, view: dict[str, Any]) -> None:
        """Publish the Home tab of the chat's user (views.publish), paced per user."""
        assert chat.user_id is not None
        user_id = chat.user_id
        try:
            await self._paced(
                chat,
                f"home:{user_id}",
                lambda client: client.views_publish(user_id=user_id, view=view),
            )
        except _FAILURES as err:
            raise _translated(err) from err

    def fits(self, screen: Screen) -> bool:
        """Whether the screen renders as one message within Slack's block and text limits."""
        return render.fits(screen)

    async def _posting(self, chat: ChatAddress, post: _Post) -> str:
        """Post where the chat says; where the bot may not, in the user's DM with a note."""
        channel, thread = _target(chat)
        if _is_user(channel):
            # A user as the chat means their DM; a file upload takes only a channel id.
            channel = await self._direct_channel(chat, channel)
        try:
            return await post(channel, thread, None)
        except SlackApiError as err:
            code = _error_code(err)
            if code not in _NOT_HERE or chat.user_id is None or is_direct(channel):
                raise _translated(err) from err
        except _FAILURES as err:
            raise _translated(err) from err
        log.info("cannot post in %s (%s); posting to the user's DM instead", channel, code)
        direct = await self._direct_channel(chat, chat.user_id)
        note = self._texts.dm_note.format(channel=f"<#{channel}>")
        try:
            return await post(direct, None, note)
        except _FAILURES as err:
            raise _translated(err) from err

    async def _direct_channel(self, chat: ChatAddress, user_id: str) -> str:
        """The id of the user's DM with the bot (conversations.open)."""
        client = await self.client_for(chat)
        try:
            answer = await client.conversations_open(users=user_id)
        except _FAILURES as err:
            raise _translated(err) from err
        return str(answer["channel"]["id"])
