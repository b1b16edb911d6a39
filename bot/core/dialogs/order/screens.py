"""The order's screens and buttons that the wizard's steps and the checkouts share."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from bot.api import Size, Tone
from bot.core.conversation.actions import Abort, ChangeChoices, PickSize, PickTone
from bot.core.conversation.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.dialogs.order.checkout import checkout_of
from bot.core.ordering.title_files import RowProblem, problem_text
from bot.core.texts import Texts, in_every_language
from bot.core.turn import text_screen
from storage import drafts
from storage.models import Draft

__all__ = [
    "BULK_LIMIT",
    "cancel_button",
    "change_row",
    "list_prompt",
    "own_sizes_cost",
    "refused_block",
    "size_button",
    "size_cost",
    "size_label",
    "size_screen",
    "title_count",
    "titles_heading",
    "tone_screen",
]

# The most titles a typed list takes.
BULK_LIMIT = 20


def list_prompt(ask: str) -> Screen:
    """A request for a list of titles (``ask`` names the limit), answered in one message."""
    prompt = text_screen(ask.format(limit=BULK_LIMIT))
    return Screen(prompt.blocks, multiline_input=True)


def titles_heading(
    texts: Texts, draft: Draft, own: Sequence[str] | None = None
) -> tuple[Block, ...]:
    """A list of titles, each with what ``own`` adds to it, and those a file gave that were
    refused, with the reason."""
    titles = draft.titles or []
    extras = own or [""] * len(titles)
    items = tuple((Span(f"{title}{extra}"),) for title, extra in zip(titles, extras, strict=True))
    label = texts.summary_bulk_titles.format(count=len(titles))
    return (paragraph(bold(f"{label}:")), BulletList(items), *refused_block(texts, draft))


def refused_block(texts: Texts, draft: Draft) -> tuple[Block, ...]:
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


def tone_screen(texts: Texts, draft: Draft, tones: Sequence[Tone]) -> Screen:
    """The tones to pick from, each described."""
    buttons = [_tone_button(texts, draft, tone) for tone in tones]
    rows = tuple(tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2))
    cancel = (cancel_button(texts, draft),)
    # The service describes each tone; the description says more than the name.
    described = BulletList(
        tuple(
            (bold(texts.tone_name(tone)), Span(f" — {texts.tone_description(tone)}"))
            if texts.tone_description(tone)
            else (bold(texts.tone_name(tone)),)
            for tone in tones
        )
    )
    blocks = (*checkout_of(draft).heading(texts, draft), paragraph(texts.pick_tone), described)
    return Screen(blocks, (*rows, cancel))


def size_screen(texts: Texts, draft: Draft, tone: Tone, sizes: Sequence[Size]) -> Screen:
    """The sizes to pick from, each with what the draft's titles cost in it."""
    rows = tuple((size_button(texts, draft, size),) for size in sizes)
    cancel = (cancel_button(texts, draft),)
    blocks = (
        *checkout_of(draft).heading(texts, draft),
        paragraph(bold(f"{texts.summary_tone}: "), texts.tone_name(tone)),
    )
    return Screen((*blocks, paragraph(texts.pick_size)), (*rows, cancel))


def size_label(texts: Texts, size: Size, count: int) -> str:
    """A size's name, words and what ``count`` titles cost in it."""
    cost = texts.money(size_cost(size, count))
    return texts.size_label.format(name=texts.size_name(size), words=size.words, cost=cost)


def size_cost(size: Size, count: int) -> Decimal:
    """What ``count`` titles cost in the size."""
    return (size.cost or Decimal(0)) * count


def title_count(draft: Draft) -> int:
    """How many of the draft's titles take the size chosen with the buttons."""
    own_sizes = sum(size is not None for _, size in draft.title_choices or [])
    return len(drafts.draft_titles(draft)) - own_sizes


def own_sizes_cost(draft: Draft, sizes: Sequence[Size]) -> Decimal:
    """What the titles whose file row named a size cost together."""
    cost = {size.id: size.cost or Decimal(0) for size in sizes}
    return sum(
        (cost.get(size, Decimal(0)) for _, size in draft.title_choices or [] if size), Decimal(0)
    )


def _tone_button(texts: Texts, draft: Draft, tone: Tone) -> Button:
    return Button(
        texts.tone_name(tone),
        PickTone(draft.id, tone.id).encode(),
        aliases=in_every_language(lambda t: t.tone_name(tone)),
    )


def size_button(texts: Texts, draft: Draft, size: Size) -> Button:
    """A size to pick, labelled with what the draft costs in it."""
    return Button(
        size_label(texts, size, title_count(draft)),
        PickSize(draft.id, size.id).encode(),
        aliases=in_every_language(lambda t: t.size_name(size)),
    )


def cancel_button(texts: Texts, draft: Draft) -> Button:
    """``İptal``: the draft dropped."""
    aliases = in_every_language(lambda t: t.button_cancel)
    return Button(texts.button_cancel, Abort(draft.id).encode(), aliases=aliases)


def change_row(texts: Texts, draft: Draft) -> tuple[tuple[Button, ...]]:
    """ "Değiştir": another tone and size than the client's defaults."""
    aliases = in_every_language(lambda t: t.button_change_choices)
    data = ChangeChoices(draft.id).encode()
    return ((Button(texts.button_change_choices, data, aliases=aliases),),)
