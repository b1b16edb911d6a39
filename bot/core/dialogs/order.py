"""/yaz and /toplu: title(s), tone, size, a summary with the balance, then the purchase.

A draft moves TITLE -> TONE -> SIZE -> READY; ``Onayla`` hands it to ``bot.core.purchase``,
the one place that charges (READY -> SUBMITTED, once). See order.mmd beside this file.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from decimal import Decimal
from functools import partial

from sqlmodel import Session

from bot.api import (
    Size,
    Tone,
)
from bot.core import clients, purchase
from bot.core.actions import Abort, ChangeChoices, Confirm, PickClient, PickSize, PickTone
from bot.core.dialogs import low_balance
from bot.core.errors import DraftClosed
from bot.core.events import Command, OrderForm, Press, Text, Upload
from bot.core.forms import OrderChoices, title_problem
from bot.core.inputs import one_line, printable
from bot.core.plans import summary as plan_summary
from bot.core.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.screens import Button, Screen
from bot.core.texts import Texts, in_every_language
from bot.core.title_files import (
    CheckedTitles,
    RowProblem,
    TitleFileRefused,
    TitleRow,
    check_rows,
    problem_text,
    read_titles,
    refusal_text,
)
from bot.core.turn import Turn, text_screen
from storage import drafts
from storage.models import Draft
from storage.states import Awaiting, DraftKind, DraftStep

__all__ = [
    "BULK_LIMIT",
    "bulk_titles_entered",
    "choices",
    "choices_changed",
    "client_picked",
    "confirmed",
    "file_sent",
    "form_submitted",
    "new_draft",
    "order_aborted",
    "size_picked",
    "start_again",
    "start_bulk",
    "start_order",
    "summary_again",
    "take_bulk_titles",
    "title_entered",
    "tone_picked",
]

BULK_LIMIT = 20
_OPEN_STEPS = frozenset(drafts.OPEN_STEPS)
_PLACED_STEPS = frozenset({DraftStep.SUBMITTED, DraftStep.DONE})
# Several titles: one per line, or on one line between these marks.
_TITLE_SEPARATORS = re.compile(r"[\n;|]")


async def new_draft(turn: Turn, kind: DraftKind) -> Draft:
    """A new draft of the user in this chat; their drafts not yet submitted are cancelled."""
    chat = turn.origin.chat

    def create(session: Session) -> Draft:
        drafts.cancel_open_drafts(session, user_id=turn.user_id)
        return drafts.create_draft(
            session, user_id=turn.user_id, chat_id=chat.chat_id, thread_id=chat.thread_id, kind=kind
        )

    return await turn.store(create)


async def _save(turn: Turn, draft: Draft) -> Draft:
    saved = await turn.store(lambda s: drafts.save_draft(s, draft=draft))
    if saved is None:
        raise DraftClosed(draft.id)
    return saved


async def start_order(turn: Turn, command: Command) -> None:
    """Start a draft; take the title from the command or ask for it; then warn of a low
    balance (by the summary's, where the draft got that far)."""
    await turn.services.accounts.require(turn.user_id)
    draft = await new_draft(turn, DraftKind.SINGLE)
    title = one_line(command.args)
    if title:
        await _take_title(turn, draft, title)
    else:
        await _proceed(turn, draft, message_id=None)
    await low_balance.warn(turn, balance=draft.balance_seen, exact=True)


async def _proceed(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    """The next step a draft lacks: its client (first, for a user with clients), its title(s),
    then the tone and size, which a client's defaults give at once."""
    if not draft.client_chosen:
        choices = await clients.live_clients(turn)
        if choices:
            await _ask_client(turn, draft, choices, message_id=message_id)
            return
    if not any(drafts.draft_titles(draft)):
        await _ask_titles(turn, draft, message_id=message_id)
        return
    own = draft.title_choices
    if own and all(tone is not None and size is not None for tone, size in own):
        await turn.expect(None)
        await _show_summary(turn, draft, None, None, message_id=message_id)
        return
    tone, size = await _client_defaults(turn, draft)
    if tone is not None and size is not None:
        await turn.expect(None)
        draft.tone = tone.id
        await _show_summary(turn, draft, tone, size, message_id=message_id)
        return
    await _ask_tone(turn, draft, message_id=message_id)


async def _client_defaults(turn: Turn, draft: Draft) -> tuple[Tone | None, Size | None]:
    """The default tone and size of the draft's client, where the service still offers them."""
    tone_id, size_id = clients.defaults_of(await clients.client_by_id(turn, draft.client_id))
    catalog = turn.services.catalog
    tone = await catalog.tone(turn.user_id, tone_id) if tone_id is not None else None
    size = await catalog.size(turn.user_id, size_id) if size_id is not None else None
    return tone, size


async def _ask_client(
    turn: Turn, draft: Draft, choices: Sequence[clients.Client], *, message_id: str | None
) -> None:
    await turn.expect(None)
    draft.step = DraftStep.CLIENT
    await _save(turn, draft)
    texts = turn.texts
    rows = clients.client_rows(texts, choices, lambda cid: PickClient(draft.id, cid).encode())
    heading = _order_heading(texts, draft) if any(drafts.draft_titles(draft)) else ()
    blocks = (*heading, paragraph(texts.ask_which_client))
    turn.replace(message_id, Screen(blocks, (*rows, (_cancel_button(texts, draft),))))


async def _ask_titles(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    draft.step = DraftStep.TITLE
    await _save(turn, draft)
    if draft.kind is DraftKind.SINGLE:
        await turn.expect(Awaiting.TITLE, context=draft.id)
        turn.replace(message_id, text_screen(turn.texts.ask_title))
        return
    await turn.expect(_titles_awaited(draft), context=draft.id)
    texts = turn.texts
    ask = texts.ask_bulk_titles_lines if turn.origin.line_by_line else texts.ask_bulk_titles
    if draft.kind is DraftKind.PLAN:
        ask = texts.calendar.ask_titles
    prompt = text_screen(ask.format(limit=BULK_LIMIT))
    turn.replace(message_id, Screen(prompt.blocks, multiline_input=True))


async def client_picked(turn: Turn, action: PickClient, press: Press) -> None:
    """Store the client of the draft, then go on to what the draft still lacks."""
    draft = await _pressed_draft(turn, action.draft_id, frozenset({DraftStep.CLIENT}))
    if draft is None:
        return
    client = await clients.client_by_id(turn, action.client)
    if action.client != clients.NO_CLIENT and (client is None or client.removed_at is not None):
        turn.notice(turn.texts.stale_button)
        return
    draft.client_id = client.id if client is not None else None
    draft.client_chosen = True
    draft.step = DraftStep.TITLE
    await _proceed(turn, draft, message_id=press.message_id)


async def choices_changed(turn: Turn, action: ChangeChoices, press: Press) -> None:
    """Leave the client's default tone and size: ask for the tone, then the size."""
    draft = await _pressed_draft(turn, action.draft_id, frozenset({DraftStep.READY}))
    if draft is None:
        return
    draft.size = None
    await _ask_tone(turn, draft, message_id=press.message_id)


async def start_again(
    turn: Turn, title: str, tone_id: int | None, size_id: int | None, client_id: int | None = None
) -> Draft:
    """Start a draft from an earlier order: to the summary when its tone and size are given and
    still offered, else to the tone (a size given is kept, and the summary follows the tone).
    The earlier order's client stays the client, removed or not. The new draft."""
    draft = await new_draft(turn, DraftKind.SINGLE)
    draft.title = title
    draft.client_id, draft.client_chosen = client_id, True
    catalog = turn.services.catalog
    tone = await catalog.tone(turn.user_id, tone_id) if tone_id is not None else None
    size = await catalog.size(turn.user_id, size_id) if size_id is not None else None
    if tone is not None and size is not None:
        await turn.expect(None)
        draft.tone = tone.id
        await _show_summary(turn, draft, tone, size, message_id=None)
        return draft
    draft.size = size.id if size is not None else None
    await _ask_tone(turn, draft, message_id=None)
    return draft


async def title_entered(turn: Turn, text: Text) -> None:
    """Take the awaited title, or ask again with the reason."""
    draft = await _awaited_draft(turn)
    if draft is not None:
        await _take_title(turn, draft, one_line(text.text))


async def _awaited_draft(turn: Turn) -> Draft | None:
    """The draft whose title(s) the user's reply answers; else the wait ends with a notice."""
    draft_id = turn.user.awaiting_context or ""
    draft = await turn.store(lambda s: drafts.get_draft(s, draft_id=draft_id))
    if draft is None or draft.chat_user_id != turn.user_id or draft.step is not DraftStep.TITLE:
        await turn.expect(None)
        turn.say(turn.texts.stale_button)
        return None
    return draft


async def _ask_again(turn: Turn, draft: Draft, awaiting: Awaiting, problem: str) -> None:
    await turn.expect(awaiting, context=draft.id)
    turn.say(problem)


async def _take_title(turn: Turn, draft: Draft, title: str) -> None:
    problem = title_problem(turn.texts, title)
    if problem:
        await _ask_again(turn, draft, Awaiting.TITLE, problem)
        return
    draft.title = title
    await _proceed(turn, draft, message_id=None)


async def start_bulk(turn: Turn, command: Command) -> None:
    """Start a bulk draft; take the titles (one per line) from the command or ask for them."""
    await turn.services.accounts.require(turn.user_id)
    draft = await new_draft(turn, DraftKind.BULK)
    if command.args.strip():
        await take_bulk_titles(turn, draft, command.args)
    else:
        await _proceed(turn, draft, message_id=None)


async def bulk_titles_entered(turn: Turn, text: Text) -> None:
    """Take the awaited list of titles, or ask again naming the bad lines."""
    draft = await _awaited_draft(turn)
    if draft is not None:
        await take_bulk_titles(turn, draft, text.text)


def _titles_awaited(draft: Draft) -> Awaiting:
    """What a reply to the draft's request for titles answers: an order's, or a plan's."""
    return Awaiting.PLAN_TITLES if draft.kind is DraftKind.PLAN else Awaiting.BULK_TITLES


async def take_bulk_titles(turn: Turn, draft: Draft, text: str) -> None:
    """Take a typed list of titles by a file's rule: a title the service would refuse is left
    out and named with its reason; with none left, or too many, ask again."""
    parts = _TITLE_SEPARATORS.split(printable(text))
    rows = [TitleRow(one_line(part)) for part in parts if part.strip()]
    if len(rows) > BULK_LIMIT:
        problem = turn.texts.bulk_too_many.format(limit=BULK_LIMIT, count=len(rows))
        await _ask_again(turn, draft, _titles_awaited(draft), problem)
        return
    await _take_checked(turn, draft, check_rows(rows, (), ()), turn.texts.bulk_no_titles)


async def _take_checked(turn: Turn, draft: Draft, checked: CheckedTitles, none_left: str) -> None:
    """Keep the titles taken and those left out; go on, or ask again when none was taken."""
    draft.titles, draft.title_choices = checked.titles, checked.choices
    draft.refused_titles, draft.refused_more = checked.refused, checked.refused_more
    if not checked.titles:
        await turn.expect(_titles_awaited(draft), context=draft.id)
        turn.say(*_refused_block(turn.texts, draft), none_left)
        return
    await _proceed(turn, draft, message_id=None)


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
    draft = await _awaited_draft(turn) if awaited else await new_draft(turn, DraftKind.BULK)
    if draft is not None:
        await _take_checked(turn, draft, checked, turn.texts.file_no_titles)


async def form_submitted(turn: Turn, form: OrderForm) -> None:
    """Take title, tone and size from one form and show the summary."""
    await turn.services.accounts.require(turn.user_id)
    title = one_line(form.title)
    problem = title_problem(turn.texts, title)
    tone = await turn.services.catalog.tone(turn.user_id, form.tone)
    size = await turn.services.catalog.size(turn.user_id, form.size)
    client = await clients.client_by_id(turn, form.client)
    gone = bool(form.client) and (client is None or client.removed_at is not None)
    if problem or tone is None or size is None or gone:
        turn.say(problem or turn.texts.stale_button)
        return
    draft = await new_draft(turn, DraftKind.SINGLE)
    draft.title, draft.tone = title, tone.id
    draft.client_id, draft.client_chosen = (client.id if client else None), True
    await _show_summary(turn, draft, tone, size, message_id=None)


async def choices(turn: Turn) -> OrderChoices:
    """The tones and sizes the user can order, labelled in their language."""
    await turn.services.accounts.require(turn.user_id)
    tones = await turn.services.catalog.tones(turn.user_id)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    live = [(c.id, c.name) for c in await clients.live_clients(turn) if c.id is not None]
    return OrderChoices(
        tones=tuple((tone.id, turn.texts.tone_name(tone)) for tone in tones),
        sizes=tuple((size.id, _size_label(turn.texts, size, 1)) for size in sizes),
        clients=((clients.NO_CLIENT, turn.texts.button_no_client), *live) if live else (),
    )


def _size_label(texts: Texts, size: Size, count: int) -> str:
    cost = texts.money(_cost(size, count))
    return texts.size_label.format(name=texts.size_name(size), words=size.words, cost=cost)


def _cost(size: Size, count: int) -> Decimal:
    return (size.cost or Decimal(0)) * count


def _tone_button(texts: Texts, draft: Draft, tone: Tone) -> Button:
    return Button(
        texts.tone_name(tone),
        PickTone(draft.id, tone.id).encode(),
        aliases=in_every_language(lambda t: t.tone_name(tone)),
    )


def _size_button(texts: Texts, draft: Draft, size: Size) -> Button:
    return Button(
        _size_label(texts, size, _title_count(draft)),
        PickSize(draft.id, size.id).encode(),
        aliases=in_every_language(lambda t: t.size_name(size)),
    )


async def _ask_tone(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    await turn.expect(None)
    draft.step = DraftStep.TONE
    await _save(turn, draft)
    tones = await turn.services.catalog.tones(turn.user_id)
    turn.replace(message_id, _tone_screen(turn.texts, draft, tones))


def _tone_screen(texts: Texts, draft: Draft, tones: Sequence[Tone]) -> Screen:
    buttons = [_tone_button(texts, draft, tone) for tone in tones]
    rows = tuple(tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2))
    cancel = (_cancel_button(texts, draft),)
    # The service describes each tone; the description says more than the name.
    described = BulletList(
        tuple(
            (bold(texts.tone_name(tone)), Span(f" — {texts.tone_description(tone)}"))
            if texts.tone_description(tone)
            else (bold(texts.tone_name(tone)),)
            for tone in tones
        )
    )
    blocks = (*_order_heading(texts, draft), paragraph(texts.pick_tone), described)
    return Screen(blocks, (*rows, cancel))


def _size_screen(texts: Texts, draft: Draft, tone: Tone, sizes: Sequence[Size]) -> Screen:
    rows = tuple((_size_button(texts, draft, size),) for size in sizes)
    cancel = (_cancel_button(texts, draft),)
    blocks = (
        *_order_heading(texts, draft),
        paragraph(bold(f"{texts.summary_tone}: "), texts.tone_name(tone)),
    )
    return Screen((*blocks, paragraph(texts.pick_size)), (*rows, cancel))


def _order_heading(
    texts: Texts, draft: Draft, own: Sequence[str] | None = None
) -> tuple[Block, ...]:
    """The title(s) of the order; ``own`` adds to each title the tone and size its file row
    named, and the titles a file gave that were refused are listed with the reason."""
    if draft.kind is DraftKind.SINGLE:
        return (paragraph(bold(f"{texts.summary_title}: "), draft.title or ""),)
    titles = draft.titles or []
    extras = own or [""] * len(titles)
    items = tuple((Span(f"{title}{extra}"),) for title, extra in zip(titles, extras, strict=True))
    label = texts.summary_bulk_titles.format(count=len(titles))
    return (paragraph(bold(f"{label}:")), BulletList(items), *_refused_block(texts, draft))


def _refused_block(texts: Texts, draft: Draft) -> tuple[Block, ...]:
    """The titles of a file that were left out, each with its reason; none without."""
    refused = draft.refused_titles or []
    if not refused:
        return ()
    reasons = tuple(
        (Span(f"{title} — {problem_text(texts, RowProblem(problem))}"),)
        for title, problem in refused
    )
    heading = texts.file_refused_titles.format(count=len(refused) + draft.refused_more)
    blocks: tuple[Block, ...] = (paragraph(bold(f"{heading}:")), BulletList(reasons))
    if draft.refused_more:
        blocks += (paragraph(texts.file_refused_more.format(count=draft.refused_more)),)
    return blocks


def _title_count(draft: Draft) -> int:
    """How many of the draft's titles take the size chosen with the buttons."""
    if draft.kind is DraftKind.SINGLE:
        return 1
    own_sizes = sum(size is not None for _, size in draft.title_choices or [])
    return len(draft.titles or []) - own_sizes


def _own_sizes_cost(draft: Draft, sizes: Sequence[Size]) -> Decimal:
    """What the titles whose file row named a size cost together."""
    cost = {size.id: size.cost or Decimal(0) for size in sizes}
    return sum(
        (cost.get(size, Decimal(0)) for _, size in draft.title_choices or [] if size), Decimal(0)
    )


def _cancel_button(texts: Texts, draft: Draft) -> Button:
    aliases = in_every_language(lambda t: t.button_cancel)
    return Button(texts.button_cancel, Abort(draft.id).encode(), aliases=aliases)


async def _pressed_draft(
    turn: Turn, draft_id: str, steps: frozenset[DraftStep], *, once_placed: str | None = None
) -> Draft | None:
    """The draft of a pressed button if it is this user's and at one of these steps; else a notice.

    ``once_placed`` is the notice for a draft already submitted, where that deserves its own.
    """
    draft = await turn.store(lambda s: drafts.get_draft(s, draft_id=draft_id))
    if draft is not None and draft.chat_user_id != turn.user_id:
        turn.notice(turn.texts.not_your_button)
        return None
    if draft is None or draft.step not in steps:
        placed = draft is not None and draft.step in _PLACED_STEPS
        turn.notice(once_placed if placed and once_placed else turn.texts.stale_button)
        return None
    return draft


async def tone_picked(turn: Turn, action: PickTone, press: Press) -> None:
    """Store the tone and ask for the size."""
    draft = await _pressed_draft(
        turn, action.draft_id, _OPEN_STEPS - {DraftStep.TITLE, DraftStep.CLIENT}
    )
    if draft is None:
        return
    tone = await turn.services.catalog.tone(turn.user_id, action.tone)
    if tone is None:
        turn.notice(turn.texts.stale_button)
        return
    kept = draft.size if draft.step is DraftStep.TONE else None
    size = await turn.services.catalog.size(turn.user_id, kept) if kept is not None else None
    if size is not None:
        # Ordered again in another tone: the size stays that of the earlier order.
        draft.tone = tone.id
        await _show_summary(turn, draft, tone, size, message_id=press.message_id)
        return
    draft.tone, draft.size, draft.cost, draft.step = tone.id, None, None, DraftStep.SIZE
    await _save(turn, draft)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    turn.replace(press.message_id, _size_screen(turn.texts, draft, tone, sizes))


async def size_picked(turn: Turn, action: PickSize, press: Press) -> None:
    """Store the size and cost, then show the summary with the balance."""
    draft = await _pressed_draft(
        turn, action.draft_id, frozenset({DraftStep.SIZE, DraftStep.READY})
    )
    if draft is None:
        return
    size = await turn.services.catalog.size(turn.user_id, action.size)
    tone = await turn.services.catalog.tone(turn.user_id, draft.tone or 0)
    if size is None or tone is None:
        turn.notice(turn.texts.stale_button)
        return
    await _show_summary(turn, draft, tone, size, message_id=press.message_id)


async def _show_summary(
    turn: Turn, draft: Draft, tone: Tone | None, size: Size | None, *, message_id: str | None
) -> None:
    """The order as it will be charged; ``tone`` and ``size`` are None where every title of a
    file named its own. A plan's draft gets the plan's summary, which charges nothing."""
    texts = turn.texts
    sizes = await turn.services.catalog.sizes(turn.user_id)
    count = _title_count(draft)
    fixed = _own_sizes_cost(draft, sizes)
    draft.size = size.id if size is not None else None
    draft.cost = fixed + (_cost(size, count) if size is not None else Decimal(0))
    draft.step = DraftStep.READY
    if draft.kind is not DraftKind.PLAN:
        # Kept with the draft: a confirmed order's warning of a low balance starts from it.
        draft.balance_seen = await turn.upstream(turn.services.api.balance)
    await _save(turn, draft)
    blocks = await _summary_blocks(turn, draft, tone, size, sizes)
    cancel = _cancel_button(texts, draft)
    change = _change_row(texts, draft) if tone is not None and draft.client_id else ()
    if draft.kind is DraftKind.PLAN:
        await plan_summary.show(turn, draft, blocks, cancel, change, message_id=message_id)
        return
    balance = draft.balance_seen
    assert balance is not None, "a summary to be paid shows the balance"
    blocks.append(paragraph(bold(f"{texts.summary_balance}: "), texts.money(balance)))
    if balance < draft.cost:
        # No purchase button: an order the balance cannot pay is refused before any charge.
        # The sizes it can pay are offered instead.
        blocks.append(
            paragraph(texts.summary_insufficient.format(missing=texts.money(draft.cost - balance)))
        )
        affordable = [
            s for s in sizes if count and s.cost is not None and fixed + _cost(s, count) <= balance
        ]
        if affordable:
            blocks.append(paragraph(texts.summary_pick_affordable))
        rows = tuple((_size_button(texts, draft, s),) for s in affordable)
        turn.replace(message_id, Screen(tuple(blocks), (*rows, (cancel,))))
        return
    turn.replace(message_id, Screen(tuple(blocks), (_purchase_row(texts, draft), *change)))


async def _client_line(turn: Turn, draft: Draft) -> list[Block]:
    """The client the order is for, in its summary; nothing for an order without one."""
    client = await clients.client_by_id(turn, draft.client_id)
    if client is None:
        return []
    return [
        paragraph(bold(f"{turn.texts.summary_client}: "), clients.shown_name(turn.texts, client))
    ]


def _change_row(texts: Texts, draft: Draft) -> tuple[tuple[Button, ...]]:
    """ "Değiştir": another tone and size than the client's defaults."""
    aliases = in_every_language(lambda t: t.button_change_choices)
    data = ChangeChoices(draft.id).encode()
    return ((Button(texts.button_change_choices, data, aliases=aliases),),)


async def _summary_blocks(
    turn: Turn, draft: Draft, tone: Tone | None, size: Size | None, sizes: Sequence[Size]
) -> list[Block]:
    """The summary's title(s), tone, size and cost."""
    texts = turn.texts
    blocks = [*_order_heading(texts, draft, await _own_choices(turn, draft, sizes))]
    blocks += await _client_line(turn, draft)
    if tone is not None:
        blocks.append(paragraph(bold(f"{texts.summary_tone}: "), texts.tone_name(tone)))
    if size is not None:
        words = f"{texts.size_name(size)} ({size.words})"
        blocks.append(paragraph(bold(f"{texts.summary_size}: "), words))
    blocks.append(paragraph(bold(f"{texts.summary_cost}: "), texts.money(draft.cost or Decimal(0))))
    return blocks


async def summary_again(turn: Turn, draft_id: str, message_id: str | None) -> None:
    """Show a ready draft's summary anew (a plan's target was chosen meanwhile)."""
    draft = await _pressed_draft(turn, draft_id, frozenset({DraftStep.READY}))
    if draft is None:
        return
    catalog = turn.services.catalog
    tone = await catalog.tone(turn.user_id, draft.tone) if draft.tone is not None else None
    size = await catalog.size(turn.user_id, draft.size) if draft.size is not None else None
    await _show_summary(turn, draft, tone, size, message_id=message_id)


async def _own_choices(turn: Turn, draft: Draft, sizes: Sequence[Size]) -> list[str] | None:
    """Beside each title of a file, the tone and size its row named; None without a file."""
    if not draft.title_choices:
        return None
    tones = {
        tone.id: turn.texts.tone_name(tone)
        for tone in await turn.services.catalog.tones(turn.user_id)
    }
    named = {size.id: turn.texts.size_name(size) for size in sizes}
    labels = []
    for tone, size in draft.title_choices:
        own = [name for name in (tones.get(tone or 0), named.get(size or 0)) if name]
        labels.append(f" ({', '.join(own)})" if own else "")
    return labels


def _purchase_row(texts: Texts, draft: Draft) -> tuple[Button, ...]:
    aliases = in_every_language(lambda t: t.button_confirm)
    confirm = Button(texts.button_confirm, Confirm(draft.id).encode(), aliases=aliases)
    return (confirm, _cancel_button(texts, draft))


async def order_aborted(turn: Turn, action: Abort, press: Press) -> None:
    """Drop the draft unless it was already submitted."""
    draft = await _pressed_draft(
        turn, action.draft_id, _OPEN_STEPS, once_placed=turn.texts.order_cannot_cancel
    )
    if draft is None:
        return
    await turn.store(lambda s: drafts.close_draft(s, draft_id=draft.id, step=DraftStep.CANCELLED))
    await turn.expect(None)
    plan = draft.kind is DraftKind.PLAN
    cancelled = turn.texts.calendar.cancelled if plan else turn.texts.order_cancelled
    turn.replace(press.message_id, text_screen(cancelled))


async def confirmed(turn: Turn, action: Confirm, press: Press) -> None:
    """Buy the draft (submitted exactly once), say how it went, then warn of a low balance."""
    bought = await purchase.buy(turn, action.draft_id)
    texts = turn.texts
    match bought:
        case purchase.NotBought(why=purchase.Refusal.NOT_YOURS):
            turn.notice(texts.not_your_button)
            return
        case purchase.NotBought(why=purchase.Refusal.ALREADY_PLACED):
            turn.notice(texts.order_already_handled)
            return
        case purchase.NotBought():
            turn.notice(texts.stale_button)
            return
    buttons = (_purchase_row(texts, bought.draft),) if bought.retry else ()
    turn.replace(press.message_id, Screen(text_screen(bought.text).blocks, buttons))
    for job in bought.jobs:
        # After the answer above is shown, so the progress line comes below it.
        turn.afterwards(partial(turn.services.outbox.progress.announce, job))
    if bought.jobs:
        await low_balance.warn(turn, balance=bought.balance_left)
