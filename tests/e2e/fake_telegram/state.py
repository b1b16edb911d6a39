"""Everything the fake Telegram knows: people, chats and their messages, pending updates,
callback queries, commands, the webhook, files, injected faults, flood limits and the requests
it got."""

from __future__ import annotations

import itertools
import time
from collections import deque
from http import HTTPStatus
from pathlib import PurePosixPath
from typing import Any

from tests.e2e.fake_telegram.changes import Changes
from tests.e2e.fake_telegram.objects import chat_json, message_json, user_json
from tests.e2e.fake_telegram.records import JSON, Call, StoredFile, StoredMessage, UploadedFile
from tests.e2e.fake_telegram.replies import ApiError, bad_request
from tests.telegram_limits import Limits, Throttle

__all__ = ["BotState"]

_NEWCOMER_NAME = "Ayşe"
_NEWCOMER_LANGUAGE = "tr"
# Update kinds Telegram sends only to bots that list them in allowed_updates.
_OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
_FIRST_UPDATE_ID = 700_000_001


class BotState:
    """The Telegram side of one bot token."""

    def __init__(
        self,
        token: str,
        *,
        username: str,
        first_name: str,
        limits: Limits | None = None,
        answer_delay: float = 0.0,
    ) -> None:
        bot_id, _, secret = token.partition(":")
        if not bot_id.isdigit() or not secret:
            raise ValueError("a bot token reads '<bot id>:<secret>'")
        self.token = token
        self.bot: JSON = {
            "id": int(bot_id),
            "is_bot": True,
            "first_name": first_name,
            "username": username,
        }
        self.users: dict[int, JSON] = {}
        self.chats: dict[int, JSON] = {}
        # The members of channels and groups the bot was added to, by chat and user id.
        self.members: dict[int, dict[int, JSON]] = {}
        self.messages: dict[int, dict[int, StoredMessage]] = {}
        self.updates: list[JSON] = []
        self.allowed_updates: frozenset[str] = frozenset()  # empty: every default kind
        self.callbacks: dict[str, JSON | None] = {}  # query id -> the bot's answer, if any
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.webhook: JSON | None = None
        self.files: dict[str, StoredFile] = {}
        # Bytes of each file (by its path) downloaded so far, across downloads.
        self.served: dict[str, int] = {}
        self.blocked: set[int] = set()
        self.faults: dict[str, deque[ApiError]] = {}
        self.calls: list[Call] = []
        self.throttle = Throttle(limits)
        self.answer_delay = answer_delay  # seconds each counted call's answer waits
        self.changes = Changes()
        self.closing = False
        self.polls = 0  # getUpdates requests so far: a newer one ends an older one still waiting
        # Inline mode (BotFather's /setinline), off as for a new bot; the queries people typed.
        self.inline_mode = False
        self.inline_queries: dict[str, Any] = {}
        self._serials = itertools.count(1)
        self._update_ids = itertools.count(_FIRST_UPDATE_ID)

    @staticmethod
    def now() -> int:
        """Unix time, the unit of every Telegram date."""
        return int(time.time())

    def serial(self) -> int:
        """A number never handed out before, for query and file ids."""
        return next(self._serials)

    def close(self) -> None:
        """Let long polls return at once: the server is stopping."""
        self.closing = True
        self.changes.notify()

    # People and chats

    def user(
        self, user_id: int, *, first_name: str | None = None, language_code: str | None = None
    ) -> JSON:
        """The ``User`` of ``user_id``, created or updated with the names given."""
        known = self.users.get(user_id, {})
        self.users[user_id] = user_json(
            user_id,
            first_name or known.get("first_name", _NEWCOMER_NAME),
            language_code=language_code or known.get("language_code", _NEWCOMER_LANGUAGE),
        )
        return self.users[user_id]

    def join(self, user: JSON, chat_id: int | None, chat_type: str) -> int:
        """The id of the chat ``user`` writes in (their private chat by default), now known."""
        chat_id = user["id"] if chat_id is None else chat_id
        self.chats[chat_id] = chat_json(chat_id, chat_type, user)
        self.messages.setdefault(chat_id, {})
        return chat_id

    def target_chat(self, chat_id: Any) -> int:
        """The chat a bot request names, refused as Telegram refuses it."""
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
            chat_id = int(chat_id)
        if not isinstance(chat_id, int) or chat_id not in self.chats:
            raise bad_request("chat not found")
        if chat_id in self.blocked:
            raise ApiError(HTTPStatus.FORBIDDEN, "Forbidden: bot was blocked by the user")
        return chat_id

    # Messages

    def next_message_id(self, chat_id: int) -> int:
        """The id the next message of the chat gets: one more than the last, deleted or not."""
        return max(self.messages[chat_id], default=0) + 1

    def store(self, message: StoredMessage) -> StoredMessage:
        """Keep ``message`` as the newest of its chat."""
        self.messages[message.chat_id][message.message_id] = message
        return message

    def find(self, chat_id: int, message_id: int) -> StoredMessage | None:
        """The message, deleted or not; None if the chat never had it."""
        return self.messages.get(chat_id, {}).get(message_id)

    def message_json(self, message: StoredMessage) -> JSON:
        """The ``Message`` as Telegram shows it now."""
        sender = self.bot if message.from_bot else self.users[message.sender_id]
        return message_json(message, chat=self.chats[message.chat_id], sender=sender)

    # Updates

    def queue_update(self, kind: str, payload: JSON) -> JSON | None:
        """Queue an ``Update`` of ``kind``; None when the bot's allowed_updates leave it out."""
        allowed = (
            kind in self.allowed_updates if self.allowed_updates else kind not in (_OPT_IN_UPDATES)
        )
        if not allowed:
            return None
        update = {"update_id": next(self._update_ids), kind: payload}
        self.updates.append(update)
        self.changes.notify()
        return update

    def confirm(self, offset: int) -> None:
        """Forget the updates before ``offset``; a negative one keeps the last ``-offset``."""
        if offset < 0:
            del self.updates[:offset]
        else:
            self.updates[:] = [u for u in self.updates if u["update_id"] >= offset]

    # Files and faults

    def store_file(self, upload: UploadedFile, *, size_shown: bool = True) -> StoredFile:
        """Keep an uploaded file under a new file id and path."""
        number = self.serial()
        name = upload.filename or "document"
        file = StoredFile(
            file_id=f"BQACAgIAAxkBAAI{number:06d}",
            file_unique_id=f"AgAD{number:06d}",
            file_path=f"documents/file_{number}{PurePosixPath(name).suffix}",
            file_name=name,
            mime_type=upload.content_type,
            content=upload.content,
            size_shown=size_shown,
        )
        self.files[file.file_id] = file
        return file

    def take_fault(self, method: str) -> ApiError | None:
        """The next injected failure of ``method``, if one is waiting."""
        waiting = self.faults.get(method.lower())
        return waiting.popleft() if waiting else None
