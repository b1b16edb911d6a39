"""/yaz and /toplu: title(s), tone, size, a summary with the balance, and the once-only purchase.

A draft moves TITLE -> TONE -> SIZE -> READY; the purchase is the single
conditional move READY -> SUBMITTED, so a double tap or a replayed update
never charges twice. See order.mmd beside this file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from functools import partial

from sqlmodel import Session

from bot.api import (
    ArticleApiError,
    CreatedJob,
    InsufficientBalance,
    OperationMissing,
    OutcomeUnknown,
    RateLimited,
    RequestRejected,
    Size,
    TokenRejected,
    Tone,
    UnexpectedResponse,
)
from bot.core.actions import Abort, Confirm, PickSize, PickTone
from bot.core.durations import estimate_seconds
from bot.core.errors import NotLoggedIn
from bot.core.events import Command, OrderForm, Press, Text
from bot.core.inputs import one_line, printable
from bot.core.money import format_tl
from bot.core.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.screens import Button, Screen
from bot.core.texts import Texts
from bot.core.turn import Turn, text_screen
from storage import drafts, jobs
from storage.models import Awaiting, Draft, DraftKind, DraftStep, Job

__all__ = [
    "BULK_LIMIT",
    "TITLE_MAX",
    "TITLE_MIN",
    "OrderChoices",
    "bulk_titles_entered",
    "choices",
    "confirmed",
    "form_submitted",
    "order_aborted",
    "size_picked",
    "start_bulk",
    "start_order",
    "title_entered",
    "tone_picked",
]

TITLE_MIN, TITLE_MAX = 10, 255
BULK_LIMIT = 20
# What can go wrong while placing an order; each is settled by _order_failed.
_Failure = ArticleApiError | NotLoggedIn
_FAILURES = (ArticleApiError, NotLoggedIn)
_OPEN_STEPS = frozenset(drafts.OPEN_STEPS)
_PLACED_STEPS = frozenset({DraftStep.SUBMITTED, DraftStep.DONE})


def title_problem(texts: Texts, title: str) -> str | None:
    """Why the upstream would refuse this title, or None when it is fine."""
    if len(title) < TITLE_MIN:
        return texts.title_too_short.format(length=len(title))
    if len(title) > TITLE_MAX:
        return texts.title_too_long.format(length=len(title))
    return None


async def _new_draft(turn: Turn, kind: DraftKind) -> Draft:
    chat = turn.origin.chat

    def create(session: Session) -> Draft:
        drafts.cancel_open_drafts(session, user_id=turn.user_id)
        return drafts.create_draft(
            session, user_id=turn.user_id, chat_id=chat.chat_id, thread_id=chat.thread_id, kind=kind
        )

    return await turn.store(create)


async def _save(turn: Turn, draft: Draft) -> Draft:
    return await turn.store(lambda s: drafts.save_draft(s, draft=draft))


async def start_order(turn: Turn, command: Command) -> None:
    """Start a draft; take the title from the command or ask for it."""
    await turn.services.accounts.require(turn.user_id)
    draft = await _new_draft(turn, DraftKind.SINGLE)
    title = one_line(command.args)
    if title:
        await _take_title(turn, draft, title)
    else:
        await turn.expect(Awaiting.TITLE, context=draft.id)
        turn.say(turn.texts.ask_title)


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
    await _ask_tone(turn, draft, message_id=None)


async def start_bulk(turn: Turn, command: Command) -> None:
    """Start a bulk draft; take the titles (one per line) from the command or ask for them."""
    await turn.services.accounts.require(turn.user_id)
    draft = await _new_draft(turn, DraftKind.BULK)
    if command.args.strip():
        await _take_bulk_titles(turn, draft, command.args)
    else:
        await turn.expect(Awaiting.BULK_TITLES, context=draft.id)
        turn.say(turn.texts.ask_bulk_titles.format(limit=BULK_LIMIT))


async def bulk_titles_entered(turn: Turn, text: Text) -> None:
    """Take the awaited list of titles, or ask again naming the bad lines."""
    draft = await _awaited_draft(turn)
    if draft is not None:
        await _take_bulk_titles(turn, draft, text.text)


async def _take_bulk_titles(turn: Turn, draft: Draft, text: str) -> None:
    titles = [one_line(line) for line in printable(text).splitlines() if line.strip()]
    bad = [
        str(number) for number, title in enumerate(titles, 1) if title_problem(turn.texts, title)
    ]
    problem = None
    if len(titles) > BULK_LIMIT:
        problem = turn.texts.bulk_too_many.format(limit=BULK_LIMIT, count=len(titles))
    elif bad or not titles:
        problem = turn.texts.bulk_bad_lines.format(lines=", ".join(bad) or "-")
    if problem:
        await _ask_again(turn, draft, Awaiting.BULK_TITLES, problem)
        return
    draft.titles = titles
    await _ask_tone(turn, draft, message_id=None)


async def form_submitted(turn: Turn, form: OrderForm) -> None:
    """Take title, tone and size from one form and show the summary."""
    await turn.services.accounts.require(turn.user_id)
    title = one_line(form.title)
    problem = title_problem(turn.texts, title)
    tone = await turn.services.catalog.tone(turn.user_id, form.tone)
    size = await turn.services.catalog.size(turn.user_id, form.size)
    if problem or tone is None or size is None:
        turn.say(problem or turn.texts.stale_button)
        return
    draft = await _new_draft(turn, DraftKind.SINGLE)
    draft.title, draft.tone = title, tone.id
    await _show_summary(turn, draft, tone, size, message_id=None)


@dataclass(frozen=True, slots=True)
class OrderChoices:
    """What an order form offers: tone ids with names, size ids with word count and cost."""

    tones: tuple[tuple[int, str], ...]
    sizes: tuple[tuple[int, str], ...]


async def choices(turn: Turn) -> OrderChoices:
    """The tones and sizes the user can order, labelled in their language."""
    await turn.services.accounts.require(turn.user_id)
    tones = await turn.services.catalog.tones(turn.user_id)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    return OrderChoices(
        tones=tuple((tone.id, tone.name) for tone in tones),
        sizes=tuple((size.id, _size_label(turn.texts, size, 1)) for size in sizes),
    )


def _size_label(texts: Texts, size: Size, count: int) -> str:
    cost = format_tl((size.cost or Decimal(0)) * count)
    return texts.size_label.format(name=size.name, words=size.words, cost=cost)


async def _ask_tone(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    await turn.expect(None)
    draft.step = DraftStep.TONE
    await _save(turn, draft)
    tones = await turn.services.catalog.tones(turn.user_id)
    turn.replace(message_id, _tone_screen(turn.texts, draft, tones))


def _tone_screen(texts: Texts, draft: Draft, tones: Sequence[Tone]) -> Screen:
    buttons = [Button(tone.name, PickTone(draft.id, tone.id).encode()) for tone in tones]
    rows = tuple(tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2))
    cancel = (_cancel_button(texts, draft),)
    return Screen((*_order_heading(texts, draft), paragraph(texts.pick_tone)), (*rows, cancel))


def _size_screen(texts: Texts, draft: Draft, tone: Tone, sizes: Sequence[Size]) -> Screen:
    count = _title_count(draft)
    rows = tuple(
        (Button(_size_label(texts, size, count), PickSize(draft.id, size.id).encode()),)
        for size in sizes
    )
    cancel = (_cancel_button(texts, draft),)
    blocks = (*_order_heading(texts, draft), paragraph(bold(f"{texts.summary_tone}: "), tone.name))
    return Screen((*blocks, paragraph(texts.pick_size)), (*rows, cancel))


def _order_heading(texts: Texts, draft: Draft) -> tuple[Block, ...]:
    if draft.kind is DraftKind.BULK:
        titles = draft.titles or []
        items = tuple((Span(title),) for title in titles)
        label = texts.summary_bulk_titles.format(count=len(titles))
        return (paragraph(bold(f"{label}:")), BulletList(items))
    return (paragraph(bold(f"{texts.summary_title}: "), draft.title or ""),)


def _title_count(draft: Draft) -> int:
    return len(draft.titles or []) if draft.kind is DraftKind.BULK else 1


def _cancel_button(texts: Texts, draft: Draft) -> Button:
    return Button(texts.button_cancel, Abort(draft.id).encode())


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
    draft = await _pressed_draft(turn, action.draft_id, _OPEN_STEPS - {DraftStep.TITLE})
    if draft is None:
        return
    tone = await turn.services.catalog.tone(turn.user_id, action.tone)
    if tone is None:
        turn.notice(turn.texts.stale_button)
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
    turn: Turn, draft: Draft, tone: Tone, size: Size, *, message_id: str | None
) -> None:
    texts = turn.texts
    draft.size = size.id
    draft.cost = (size.cost or Decimal(0)) * _title_count(draft)
    draft.step = DraftStep.READY
    await _save(turn, draft)
    balance = await turn.upstream(turn.services.api.balance)
    blocks = [
        *_order_heading(texts, draft),
        paragraph(bold(f"{texts.summary_tone}: "), tone.name),
        paragraph(bold(f"{texts.summary_size}: "), f"{size.name} ({size.words})"),
        paragraph(bold(f"{texts.summary_cost}: "), format_tl(draft.cost)),
        paragraph(bold(f"{texts.summary_balance}: "), format_tl(balance)),
    ]
    cancel = _cancel_button(texts, draft)
    if balance < draft.cost:
        # No purchase button: an order the balance cannot pay is refused before any charge.
        blocks.append(
            paragraph(texts.summary_insufficient.format(missing=format_tl(draft.cost - balance)))
        )
        turn.replace(message_id, Screen(tuple(blocks), ((cancel,),)))
        return
    turn.replace(message_id, Screen(tuple(blocks), (_purchase_row(texts, draft),)))


def _purchase_row(texts: Texts, draft: Draft) -> tuple[Button, ...]:
    return (Button(texts.button_confirm, Confirm(draft.id).encode()), _cancel_button(texts, draft))


async def order_aborted(turn: Turn, action: Abort, press: Press) -> None:
    """Drop the draft unless it was already submitted."""
    draft = await _pressed_draft(
        turn, action.draft_id, _OPEN_STEPS, once_placed=turn.texts.order_cannot_cancel
    )
    if draft is None:
        return
    await turn.store(lambda s: drafts.close_draft(s, draft_id=draft.id, step=DraftStep.CANCELLED))
    await turn.expect(None)
    turn.replace(press.message_id, text_screen(turn.texts.order_cancelled))


async def confirmed(turn: Turn, action: Confirm, press: Press) -> None:
    """Submit the draft exactly once and place the order(s) upstream."""
    now = turn.services.clock()
    draft = await turn.store(
        lambda s: drafts.claim_for_submission(
            s, draft_id=action.draft_id, user_id=turn.user_id, now=now
        )
    )
    if draft is None:
        # Someone else's, already placed, or stale: the same checks say which.
        await _pressed_draft(
            turn, action.draft_id, frozenset(), once_placed=turn.texts.order_already_handled
        )
        return
    if draft.kind is DraftKind.BULK:
        await _place_bulk(turn, draft, press)
    else:
        await _place_single(turn, draft, press)


async def _place_single(turn: Turn, draft: Draft, press: Press) -> None:
    api = turn.services.api
    title, tone, size = draft.title or "", draft.tone or 0, draft.size or 0
    try:
        created = await turn.upstream(partial(api.create, title=title, tone=tone, size=size))
    except _FAILURES as err:
        await _order_failed(turn, draft, press, err)
        return
    recorded = await _record_jobs(turn, draft, [(title, created)])
    cost = format_tl(created.cost if created.cost is not None else draft.cost or Decimal(0))
    if created.estimated_time:
        text = turn.texts.order_placed_estimate.format(
            title=title, estimate=created.estimated_time, cost=cost
        )
    else:
        text = turn.texts.order_placed.format(title=title, cost=cost)
    turn.replace(press.message_id, text_screen(text))
    await turn.services.delivery.announce(recorded[0])


async def _place_bulk(turn: Turn, draft: Draft, press: Press) -> None:
    api = turn.services.api
    titles = draft.titles or []
    items = [(title, draft.tone or 0, draft.size or 0) for title in titles]
    failure: _Failure | None = None
    try:
        created = await turn.upstream(lambda token: api.bulk_create(token, items))
        placed = list(zip(titles, created, strict=False))
        if len(created) != len(titles):
            # The answer does not account for every title; the reconciler looks for the rest.
            failure = OutcomeUnknown(f"bulk create answered {len(created)} of {len(titles)} jobs")
    except OperationMissing:
        # The bulk path is a guess; without it, the same order goes out one article at a time.
        placed, failure = await _place_one_by_one(turn, items)
    except _FAILURES as err:
        await _order_failed(turn, draft, press, err)
        return
    if not placed and failure is not None:
        await _order_failed(turn, draft, press, failure)
        return
    # Titles whose outcome is unknown keep the draft submitted, for the reconciler to find.
    settled = failure is None or not _ambiguous(failure)
    recorded = await _record_jobs(turn, draft, placed, settled=settled)
    total = sum((c.cost or Decimal(0) for _, c in placed), Decimal(0))
    if failure is None:
        text = turn.texts.bulk_placed.format(count=len(placed), cost=format_tl(total))
    else:
        text = turn.texts.bulk_partly_placed.format(
            count=len(placed),
            total=len(items),
            cost=format_tl(total),
            reason=_reason(turn, failure),
        )
    turn.replace(press.message_id, text_screen(text))
    for job in recorded:
        await turn.services.delivery.announce(job)


async def _place_one_by_one(
    turn: Turn, items: Sequence[tuple[str, int, int]]
) -> tuple[list[tuple[str, CreatedJob]], _Failure | None]:
    api = turn.services.api
    placed: list[tuple[str, CreatedJob]] = []
    for title, tone, size in items:
        try:
            created = await turn.upstream(partial(api.create, title=title, tone=tone, size=size))
        except _FAILURES as err:
            return placed, err
        placed.append((title, created))
    return placed, None


async def _record_jobs(
    turn: Turn, draft: Draft, placed: Sequence[tuple[str, CreatedJob]], *, settled: bool = True
) -> list[Job]:
    now = turn.services.clock()
    chat = turn.origin.chat

    def record(session: Session) -> list[Job]:
        rows = []
        for title, created in placed:
            wait = estimate_seconds(created.estimated_time) or 0.0
            job = jobs.draft_job(
                draft,
                platform=chat.platform,
                request_id=created.request_id,
                title=title,
                cost=created.cost,
                next_poll_at=now + timedelta(seconds=wait),
                created_at=now,
            )
            rows.append(jobs.add_job(session, job=job))
        if settled:
            drafts.close_draft(session, draft_id=draft.id, step=DraftStep.DONE)
        return rows

    return await turn.store(record)


def _ambiguous(err: _Failure) -> bool:
    """Whether the failed call may still have been charged."""
    return isinstance(err, OutcomeUnknown | UnexpectedResponse)


def _reason(turn: Turn, err: _Failure) -> str:
    texts = turn.texts
    if _ambiguous(err):
        return texts.order_outcome_unknown
    match err:
        case InsufficientBalance(required=required, current=current) if (
            required and current is not None
        ):
            return texts.order_insufficient.format(
                required=format_tl(required), current=format_tl(current)
            )
        case RequestRejected():
            return texts.order_rejected.format(reason=str(err))
        case RateLimited():
            return texts.service_busy
        case _:
            return texts.service_down


async def _order_failed(turn: Turn, draft: Draft, press: Press, err: _Failure) -> None:
    """Settle the draft after a failed create: being reconciled, refused, or free to retry."""
    texts = turn.texts
    if _ambiguous(err):
        # It may have been charged: the reconciler finds the job or reports the order lost.
        turn.replace(press.message_id, text_screen(texts.order_outcome_unknown))
        return
    if isinstance(err, RequestRejected) and not isinstance(err, TokenRejected):
        await turn.store(lambda s: drafts.close_draft(s, draft_id=draft.id, step=DraftStep.FAILED))
        turn.replace(press.message_id, text_screen(_reason(turn, err)))
        return
    # Nothing was charged: the same draft can be confirmed again.
    await turn.store(lambda s: drafts.release_submission(s, draft_id=draft.id))
    if isinstance(err, NotLoggedIn | TokenRejected):
        raise err
    message = texts.service_busy if isinstance(err, RateLimited) else texts.order_not_charged_retry
    turn.replace(
        press.message_id, Screen(text_screen(message).blocks, (_purchase_row(texts, draft),))
    )
