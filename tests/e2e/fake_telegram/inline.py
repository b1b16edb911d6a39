"""Inline mode: queries people type after the bot's username, the bot's answers, what Telegram
caches of them, a chosen result posted into a chat, and the deep links under it.

Telegram sends inline queries only to a bot whose inline mode is on (BotFather's /setinline),
takes at most 50 results per answer, a ``next_offset`` of up to 64 bytes and a
``start_parameter`` of 1-64 characters of ``A-Za-z0-9_-``, and answers anything else with
400 Bad Request. It keeps an answer ``cache_time`` seconds (300 by default) for the same query
and offset: for everyone, unless the bot said ``is_personal``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.e2e.fake_telegram.content import MESSAGE_TEXT, Formatted, formatted, inline_markup
from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.people import post
from tests.e2e.fake_telegram.records import JSON, StoredMessage
from tests.e2e.fake_telegram.replies import bad_request
from tests.e2e.fake_telegram.state import BotState

__all__ = [
    "MAX_RESULTS",
    "InlineQuery",
    "answer_inline_query",
    "choose",
    "open_link",
    "query",
]

MAX_RESULTS = 50
_OFFSET_BYTES = 64
_RESULT_ID_BYTES = 64
_START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DEFAULT_CACHE_TIME = 300
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
_RESULT_TYPES = frozenset(
    {
        "article",
        "audio",
        "contact",
        "document",
        "game",
        "gif",
        "location",
        "mpeg4_gif",
        "photo",
        "sticker",
        "venue",
        "video",
        "voice",
    }
)


@dataclass
class InlineQuery:
    """One inline query a person typed, and the answer they were shown (the bot's, or
    Telegram's cached one; None while none came)."""

    query_id: str
    user_id: int
    query: str
    offset: str
    answer: JSON | None = None
    from_cache: bool = False


def query(state: BotState, user: JSON, text: str, offset: str) -> InlineQuery:
    """``user`` types ``@bot text`` (or scrolls to ``offset``): a cached answer is shown at
    once, else the bot gets an ``inline_query`` update."""
    if not state.inline_mode:
        raise ValueError("inline mode is off for this bot (BotFather's /setinline)")
    asked = InlineQuery(str(5_000_000_000_000_000 + state.serial()), user["id"], text, offset)
    state.inline_queries[asked.query_id] = asked
    cached = _cached(state, asked)
    if cached is not None:
        asked.answer, asked.from_cache = cached, True
        state.changes.notify()
        return asked
    payload = {
        "id": asked.query_id,
        "from": user,
        "query": text,
        "offset": offset,
        "chat_type": "sender",
    }
    state.queue_update("inline_query", payload)
    return asked


async def answer_inline_query(state: BotState, params: Params) -> bool:
    """answerInlineQuery: once per query, the results and the paging checked as Telegram does."""
    asked = state.inline_queries.get(params.string("inline_query_id"))
    if asked is None or asked.answer is not None:
        raise bad_request(QUERY_TOO_OLD)
    results = params.json_list("results") or []
    if len(results) > MAX_RESULTS:
        raise bad_request("RESULTS_TOO_MUCH")
    seen: set[str] = set()
    for result in results:
        _check_result(result, seen)
    next_offset = params.string("next_offset")
    if len(next_offset.encode()) > _OFFSET_BYTES:
        raise bad_request("NEXT_OFFSET_INVALID")
    button = params.json_object("button")
    if button is not None:
        _check_button(button)
    cache_time = params.optional_integer("cache_time")
    answer = {
        "results": results,
        "next_offset": next_offset,
        "button": button,
        "cache_time": _DEFAULT_CACHE_TIME if cache_time is None else cache_time,
        "is_personal": params.flag("is_personal"),
        "at": time.monotonic(),
    }
    asked.answer = answer
    return True


def choose(
    state: BotState, user: JSON, query_id: str, result_id: str, *, chat_id: int, chat_type: str
) -> StoredMessage:
    """``user`` picks a result of an answer they were shown: its message is posted in the chat
    they typed in, as theirs, via the bot."""
    asked = state.inline_queries.get(query_id)
    if asked is None or asked.answer is None or asked.user_id != user["id"]:
        raise ValueError(f"user {user['id']} was shown no answer to inline query {query_id}")
    result = next((r for r in asked.answer["results"] if r["id"] == result_id), None)
    if result is None:
        raise ValueError(f"the answer to inline query {query_id} has no result {result_id!r}")
    text = _message_text(result["input_message_content"])
    chat = state.join(user, chat_id, chat_type)
    message = StoredMessage(
        chat_id=chat,
        message_id=state.next_message_id(chat),
        sender_id=user["id"],
        from_bot=False,
        date=state.now(),
        text=text.text,
        entities=text.entities,
        html=text.html,
        markup=inline_markup(Params({"reply_markup": result.get("reply_markup")}, {})),
    )
    state.store(message)
    state.changes.notify()
    return message


def open_link(state: BotState, user: JSON, url: str) -> JSON:
    """``user`` opens a ``t.me/<bot>?start=<payload>`` link and presses Start: the client sends
    ``/start <payload>`` in their private chat with the bot; the Message."""
    parts = urlsplit(url)
    if parts.scheme != "https" or parts.hostname != "t.me":
        raise ValueError(f"not a t.me link: {url}")
    if parts.path.strip("/").lower() != str(state.bot["username"]).lower():
        raise ValueError(f"the link opens another bot: {url}")
    payload = parse_qs(parts.query).get("start", [""])[0]
    if not _START_PARAMETER.fullmatch(payload):
        # The client opens the chat but sends a bare /start for a payload it does not take.
        payload = ""
    text = f"/start {payload}".strip()
    return post(state, user, chat_id=None, chat_type="private", text=text)


def _cached(state: BotState, asked: InlineQuery) -> JSON | None:
    """A recent answer to the same query and offset this person may be shown."""
    now = time.monotonic()
    for earlier in reversed(state.inline_queries.values()):
        answer = earlier.answer
        if earlier is asked or answer is None or earlier.from_cache:
            continue
        same = (earlier.query, earlier.offset) == (asked.query, asked.offset)
        mine = earlier.user_id == asked.user_id or not answer["is_personal"]
        if same and mine and now - answer["at"] < answer["cache_time"]:
            return answer
    return None


def _check_result(result: Any, seen: set[str]) -> None:
    if not isinstance(result, dict) or result.get("type") not in _RESULT_TYPES:
        raise bad_request("RESULT_TYPE_INVALID")
    result_id = result.get("id")
    if not isinstance(result_id, str) or not 0 < len(result_id.encode()) <= _RESULT_ID_BYTES:
        raise bad_request("RESULT_ID_INVALID")
    if result_id in seen:
        raise bad_request("RESULT_ID_DUPLICATE")
    seen.add(result_id)
    if result["type"] != "article":
        return
    if not str(result.get("title") or "").strip():
        raise bad_request("RESULT_TITLE_EMPTY")
    content = result.get("input_message_content")
    if not isinstance(content, dict) or "message_text" not in content:
        raise bad_request("MESSAGE_EMPTY")
    # The same rules as a sent message's text and keyboard.
    _message_text(content)
    inline_markup(Params({"reply_markup": result.get("reply_markup")}, {}))


def _message_text(content: JSON) -> Formatted:
    """An InputTextMessageContent's text, read by the rules of sendMessage's."""
    fields = {
        "text": content.get("message_text"),
        "parse_mode": content.get("parse_mode"),
        "entities": content.get("entities"),
    }
    return formatted(Params(fields, {}), MESSAGE_TEXT)


def _check_button(button: JSON) -> None:
    if not str(button.get("text") or ""):
        raise bad_request("BUTTON_TEXT_INVALID")
    parameter = button.get("start_parameter")
    if "web_app" not in button and not (
        isinstance(parameter, str) and _START_PARAMETER.fullmatch(parameter)
    ):
        raise bad_request("START_PARAM_INVALID")
