"""The titles of an order: /yaz's one, /toplu's list, a file's rows; each checked, then the
wizard goes on to what the draft still lacks."""

from __future__ import annotations

import asyncio
import re

from bot.core.conversation.events import Command, Text, Upload
from bot.core.conversation.forms import title_problem
from bot.core.conversation.inputs import one_line, printable
from bot.core.dialogs import low_balance
from bot.core.dialogs.order.checkout import checkout_of
from bot.core.dialogs.order.drafting import awaited_draft, new_draft
from bot.core.dialogs.order.screens import BULK_LIMIT, refused_block
from bot.core.dialogs.order.steps import proceed
from bot.core.ordering.title_files import (
    CheckedTitles,
    TitleFileRefused,
    TitleRow,
    check_rows,
    read_titles,
    refusal_text,
)
from bot.core.turn import Turn
from storage.models import Draft
from storage.states import Awaiting, DraftKind

__all__ = [
    "bulk_titles_entered",
    "file_sent",
    "start_bulk",
    "start_order",
    "take_bulk_titles",
    "title_entered",
]

# Several titles: one per line, or on one line between these marks.
_TITLE_SEPARATORS = re.compile(r"[\n;|]")


async def start_order(turn: Turn, command: Command) -> None:
    """Start a draft; take the title from the command or ask for it; then warn of a low
    balance (by the summary's, where the draft got that far)."""
    await turn.services.accounts.require(turn.user_id)
    draft = await new_draft(turn, DraftKind.SINGLE)
    title = one_line(command.args)
    if title:
        await _take_title(turn, draft, title)
    else:
        await proceed(turn, draft, message_id=None)
    await low_balance.warn(turn, balance=draft.balance_seen, exact=True)


async def title_entered(turn: Turn, text: Text) -> None:
    """Take the awaited title, or ask again with the reason."""
    draft = await awaited_draft(turn)
    if draft is not None:
        await _take_title(turn, draft, one_line(text.text))


async def _ask_again(turn: Turn, draft: Draft, awaiting: Awaiting, problem: str) -> None:
    await turn.expect(awaiting, context=draft.id)
    turn.say(problem)


async def _take_title(turn: Turn, draft: Draft, title: str) -> None:
    problem = title_problem(turn.texts, title)
    if problem:
        await _ask_again(turn, draft, Awaiting.TITLE, problem)
        return
    draft.title = title
    await proceed(turn, draft, message_id=None)


async def start_bulk(turn: Turn, command: Command) -> None:
    """Start a bulk draft; take the titles (one per line) from the command or ask for them."""
    await turn.services.accounts.require(turn.user_id)
    draft = await new_draft(turn, DraftKind.BULK)
    if command.args.strip():
        await take_bulk_titles(turn, draft, command.args)
    else:
        await proceed(turn, draft, message_id=None)


async def bulk_titles_entered(turn: Turn, text: Text) -> None:
    """Take the awaited list of titles, or ask again naming the bad lines."""
    draft = await awaited_draft(turn)
    if draft is not None:
        await take_bulk_titles(turn, draft, text.text)


async def take_bulk_titles(turn: Turn, draft: Draft, text: str) -> None:
    """Take a typed list of titles by a file's rule: a title the service would refuse is left
    out and named with its reason; with none left, or too many, ask again."""
    parts = _TITLE_SEPARATORS.split(printable(text))
    rows = [TitleRow(one_line(part)) for part in parts if part.strip()]
    if len(rows) > BULK_LIMIT:
        problem = turn.texts.bulk_too_many.format(limit=BULK_LIMIT, count=len(rows))
        await _ask_again(turn, draft, checkout_of(draft).awaiting, problem)
        return
    await _take_checked(turn, draft, check_rows(rows, (), ()), turn.texts.bulk_no_titles)


async def _take_checked(turn: Turn, draft: Draft, checked: CheckedTitles, none_left: str) -> None:
    """Keep the titles taken and those left out; go on, or ask again when none was taken."""
    draft.titles, draft.title_choices = checked.titles, checked.choices
    draft.refused_titles, draft.refused_more = checked.refused, checked.refused_more
    if not checked.titles:
        await turn.expect(checkout_of(draft).awaiting, context=draft.id)
        turn.say(*refused_block(turn.texts, draft), none_left)
        return
    await proceed(turn, draft, message_id=None)


async def file_sent(turn: Turn, upload: Upload) -> None:
    """Take the titles of a file: for the ``/toplu`` awaiting them, else as a new bulk order."""
    await turn.services.accounts.require(turn.user_id)
    try:
        # Off the event loop: a megabyte of lines would hold up every other chat meanwhile.
        rows = await asyncio.to_thread(read_titles, upload.filename, upload.content, upload.size)
    except TitleFileRefused as refused:
        # Whatever was awaited still is: the user may send a better file.
        turn.say(refusal_text(turn.texts, refused))
        return
    catalog = turn.services.catalog
    checked = check_rows(rows, await catalog.tones(turn.user_id), await catalog.sizes(turn.user_id))
    awaited = turn.user.awaiting in (Awaiting.BULK_TITLES, Awaiting.PLAN_TITLES)
    draft = await awaited_draft(turn) if awaited else await new_draft(turn, DraftKind.BULK)
    if draft is not None:
        await _take_checked(turn, draft, checked, turn.texts.file_no_titles)
