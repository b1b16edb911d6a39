"""The rules for what a bot sends: formatted text and captions, and inline keyboards."""

from __future__ import annotations

from dataclasses import dataclass

from tests.e2e.fake_telegram.markup import (
    EntityParseError,
    command_entities,
    parse_html,
    stripped,
    utf16_len,
)
from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON
from tests.e2e.fake_telegram.replies import bad_request

__all__ = ["CAPTION", "MESSAGE_TEXT", "Formatted", "TextRule", "formatted", "inline_markup"]

_BUTTON_ACTIONS = frozenset(
    {
        "callback_data",
        "callback_game",
        "copy_text",
        "login_url",
        "pay",
        "switch_inline_query",
        "switch_inline_query_chosen_chat",
        "switch_inline_query_current_chat",
        "url",
        "web_app",
    }
)
_CALLBACK_DATA_BYTES = 64
# Telegram refuses an inline keyboard of more buttons (at most 8 a row; the bot uses fewer).
_MOST_INLINE_BUTTONS = 100


@dataclass(frozen=True)
class TextRule:
    """Where a text is in the request and its limits (UTF-16 code units, after parsing)."""

    field: str
    entities_field: str
    limit: int
    too_long: str
    empty: str | None  # the error for an empty text, None where empty is fine


MESSAGE_TEXT = TextRule("text", "entities", 4096, "message is too long", "message text is empty")
CAPTION = TextRule("caption", "caption_entities", 1024, "message caption is too long", None)


@dataclass(frozen=True)
class Formatted:
    """A text as Telegram stores it: plain text, entities, and the HTML it came from, if any."""

    text: str
    entities: list[JSON]
    html: str | None


def formatted(params: Params, rule: TextRule) -> Formatted:
    """The text the request carries under ``rule``, parsed, trimmed and checked."""
    source = params.string(rule.field)
    parse_mode = params.string("parse_mode").lower()
    given = params.json_list(rule.entities_field)
    html = None
    if given is not None:
        text, entities = source, [_checked_entity(entity) for entity in given]
    elif parse_mode == "html":
        try:
            text, entities = parse_html(source)
        except EntityParseError as err:
            raise bad_request(f"can't parse entities: {err}") from err
        html = source
    elif not parse_mode:
        text, entities = source, []
    else:
        # The bot renders HTML only, so the fake knows no Markdown.
        raise bad_request(f"unsupported parse_mode {parse_mode!r} in this fake")
    found = [entity for entity in command_entities(text) if entity not in entities]
    text, entities = stripped(text, entities + found)
    if not text and rule.empty is not None:
        raise bad_request(rule.empty)
    if utf16_len(text) > rule.limit:
        raise bad_request(rule.too_long)
    return Formatted(text, entities, html)


def inline_markup(params: Params) -> JSON | None:
    """The inline keyboard of the request, checked; None for none or for a reply keyboard."""
    markup = params.values.get("reply_markup")
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return None  # reply keyboards show on the user's side, not under the message
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('can\'t parse inline keyboard: field "inline_keyboard" must be an Array')
    for row in rows:
        for button in row:
            _check_button(button)
    if sum(len(row) for row in rows) > _MOST_INLINE_BUTTONS:
        raise bad_request("reply markup is too long")
    return {"inline_keyboard": rows} if any(rows) else None


def _check_button(button: object) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not _BUTTON_ACTIONS & button.keys():
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    data = button.get("callback_data")
    if data is not None and not (
        isinstance(data, str) and 0 < len(data.encode()) <= _CALLBACK_DATA_BYTES
    ):
        raise bad_request("BUTTON_DATA_INVALID")


def _checked_entity(entity: object) -> JSON:
    if not (
        isinstance(entity, dict)
        and isinstance(entity.get("type"), str)
        and isinstance(entity.get("offset"), int)
        and isinstance(entity.get("length"), int)
    ):
        raise bad_request("can't parse entities: wrong MessageEntity")
    return entity
