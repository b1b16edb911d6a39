"""Slack's size rules for message text, Block Kit blocks and views, checked like Slack checks them.

Each violation is reported the way Slack words it in ``response_metadata.messages``, with a
JSON pointer to the offending field, so a failing end-to-end test says what was too long.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_slack.errors import SlackError

__all__ = ["accepted_content", "check_view"]

MAX_TEXT = 40_000
MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
# Slack counts the markdown blocks of one payload together; markdown_text has the same limit.
MAX_MARKDOWN_TOTAL = 12_000
MAX_BLOCK_ID = 255

# (block type, path to a text inside the block, most characters)
_TEXT_LIMITS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("section", ("text", "text"), 3000),
    ("header", ("text", "text"), 150),
    ("input", ("label", "text"), 2000),
)
# (block type, list field, most items, path to a text in each item, most characters)
_ITEM_LIMITS: tuple[tuple[str, str, int, tuple[str, ...], int], ...] = (
    ("section", "fields", 10, ("text",), 2000),
    ("actions", "elements", 25, ("text", "text"), 75),
    ("context", "elements", 10, ("text",), 3000),
)
# (view field, path to a text inside it, most characters)
_VIEW_LIMITS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("title", ("text",), 24),
    ("submit", ("text",), 24),
    ("close", ("text",), 24),
    ("private_metadata", (), 3000),
    ("callback_id", (), 255),
)


def accepted_content(text: Any, blocks: Any, markdown_text: Any = None) -> dict[str, Any]:
    """A message's ``text`` (and ``blocks``), refused as chat.postMessage refuses content.

    ``markdown_text`` stands alone and is kept as the message's text.
    """
    if markdown_text is not None:
        if text or blocks:
            raise SlackError("markdown_text_conflict")
        if len(str(markdown_text)) > MAX_MARKDOWN_TOTAL:
            raise SlackError("msg_too_long")
        return {"text": markdown_text}
    if not text and not blocks:
        raise SlackError("no_text")
    if isinstance(text, str) and len(text) > MAX_TEXT:
        raise SlackError("msg_too_long")
    if blocks is None:
        return {"text": text or ""}
    problems = _block_problems(blocks, most=MAX_MESSAGE_BLOCKS)
    if problems:
        raise SlackError("invalid_blocks", *problems)
    return {"text": text or "", "blocks": blocks}


def check_view(view: Any, *, kind: str) -> None:
    """Refuse a view as views.open/update/publish do: not a `kind` view, or over a limit."""
    if not isinstance(view, dict) or view.get("type") != kind:
        raise SlackError(
            "invalid_arguments", f"[ERROR] view type must be {kind} [json-pointer:/view]"
        )
    problems = [
        _too_long(f"/view/{field}", text, most)
        for field, path, most in _VIEW_LIMITS
        if (text := _text_at(view.get(field), path)) is not None and len(text) > most
    ]
    problems += _block_problems(view.get("blocks", []), most=MAX_VIEW_BLOCKS, prefix="/view")
    if problems:
        raise SlackError("invalid_arguments", *problems)


def _block_problems(blocks: Any, *, most: int, prefix: str = "") -> list[str]:
    where = f"{prefix}/blocks"
    if not isinstance(blocks, list):
        return [f"[ERROR] must be an array [json-pointer:{where}]"]
    problems = []
    if len(blocks) > most:
        problems.append(f"[ERROR] no more than {most} items allowed [json-pointer:{where}]")
    block_ids: set[str] = set()
    markdown_total = 0
    for index, block in enumerate(blocks):
        at = f"{where}/{index}"
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            problems.append(f"[ERROR] must be an object with a type [json-pointer:{at}]")
            continue
        if "block_id" in block:
            block_id = str(block["block_id"])
            if block_id in block_ids or len(block_id) > MAX_BLOCK_ID:
                problems.append(
                    f"[ERROR] invalid or duplicate block_id [json-pointer:{at}/block_id]"
                )
            block_ids.add(block_id)
        if block["type"] == "markdown":
            markdown_total += len(str(block.get("text", "")))
        problems += _inner_problems(block, at)
    if markdown_total > MAX_MARKDOWN_TOTAL:
        problems.append(
            f"[ERROR] markdown blocks exceed {MAX_MARKDOWN_TOTAL} characters [json-pointer:{where}]"
        )
    return problems


def _inner_problems(block: dict[str, Any], at: str) -> list[str]:
    kind = block["type"]
    problems = [
        _too_long(f"{at}/{'/'.join(path)}", text, most)
        for block_type, path, most in _TEXT_LIMITS
        if kind == block_type and (text := _text_at(block, path)) is not None and len(text) > most
    ]
    for block_type, field, most_items, path, most in _ITEM_LIMITS:
        items = block.get(field)
        if kind != block_type or not isinstance(items, list):
            continue
        if len(items) > most_items:
            problems.append(
                f"[ERROR] no more than {most_items} items allowed [json-pointer:{at}/{field}]"
            )
        problems += [
            _too_long(f"{at}/{field}/{index}/{'/'.join(path)}", text, most)
            for index, item in enumerate(items)
            if (text := _text_at(item, path)) is not None and len(text) > most
        ]
    return problems


def _text_at(value: Any, path: tuple[str, ...]) -> str | None:
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value if isinstance(value, str) else None


def _too_long(pointer: str, text: str, most: int) -> str:
    return (
        f"[ERROR] must be less than {most + 1} characters, got {len(text)} [json-pointer:{pointer}]"
    )
