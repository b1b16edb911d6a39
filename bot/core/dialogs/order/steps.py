"""The order wizard's steps: the client, the title(s) asked, the tone, the size, and the
summary (``summary``) where the draft's checkout takes over; or the draft dropped."""

from __future__ import annotations

from collections.abc import Sequence

from bot.api import Size, Tone
from bot.core.clients import picker as clients
from bot.core.conversation.actions import Abort, ChangeChoices, PickClient, PickSize, PickTone
from bot.core.conversation.events import Press
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.dialogs.order.checkout import checkout_of
from bot.core.dialogs.order.drafting import OPEN_STEPS, new_draft, pressed_draft, save
from bot.core.dialogs.order.screens import cancel_button, size_screen, tone_screen
from bot.core.dialogs.order.summary import show_summary
from bot.core.turn import Turn, text_screen
from storage import drafts
from storage.models import Draft
from storage.states import DraftKind, DraftStep

__all__ = [
    "choices_changed",
    "client_picked",
    "order_aborted",
    "proceed",
    "size_picked",
    "start_again",
    "tone_picked",
]


async def proceed(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
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
        await show_summary(turn, draft, None, None, message_id=message_id)
        return
    tone, size = await _client_defaults(turn, draft)
    if tone is not None and size is not None:
        await turn.expect(None)
        draft.tone = tone.id
        await show_summary(turn, draft, tone, size, message_id=message_id)
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
    await save(turn, draft)
    texts = turn.texts
    rows = clients.client_rows(texts, choices, lambda cid: PickClient(draft.id, cid).encode())
    titled = any(drafts.draft_titles(draft))
    heading = checkout_of(draft).heading(texts, draft) if titled else ()
    blocks = (*heading, paragraph(texts.ask_which_client))
    turn.replace(message_id, Screen(blocks, (*rows, (cancel_button(texts, draft),))))


async def _ask_titles(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    draft.step = DraftStep.TITLE
    await save(turn, draft)
    checkout = checkout_of(draft)
    await turn.expect(checkout.awaiting, context=draft.id)
    turn.replace(message_id, checkout.titles_prompt(turn))


async def client_picked(turn: Turn, action: PickClient, press: Press) -> None:
    """Store the client of the draft, then go on to what the draft still lacks."""
    draft = await pressed_draft(turn, action.draft_id, frozenset({DraftStep.CLIENT}))
    if draft is None:
        return
    client = await clients.client_by_id(turn, action.client)
    if action.client != clients.NO_CLIENT and (client is None or client.removed_at is not None):
        turn.notice(turn.texts.stale_button)
        return
    draft.client_id = client.id if client is not None else None
    draft.client_chosen = True
    draft.step = DraftStep.TITLE
    await proceed(turn, draft, message_id=press.message_id)


async def choices_changed(turn: Turn, action: ChangeChoices, press: Press) -> None:
    """Leave the client's default tone and size: ask for the tone, then the size."""
    draft = await pressed_draft(turn, action.draft_id, frozenset({DraftStep.READY}))
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
        await show_summary(turn, draft, tone, size, message_id=None)
        return draft
    draft.size = size.id if size is not None else None
    await _ask_tone(turn, draft, message_id=None)
    return draft


async def _ask_tone(turn: Turn, draft: Draft, *, message_id: str | None) -> None:
    await turn.expect(None)
    draft.step = DraftStep.TONE
    await save(turn, draft)
    tones = await turn.services.catalog.tones(turn.user_id)
    turn.replace(message_id, tone_screen(turn.texts, draft, tones))


async def tone_picked(turn: Turn, action: PickTone, press: Press) -> None:
    """Store the tone and ask for the size."""
    draft = await pressed_draft(
        turn, action.draft_id, OPEN_STEPS - {DraftStep.TITLE, DraftStep.CLIENT}
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
        await show_summary(turn, draft, tone, size, message_id=press.message_id)
        return
    draft.tone, draft.size, draft.cost, draft.step = tone.id, None, None, DraftStep.SIZE
    await save(turn, draft)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    turn.replace(press.message_id, size_screen(turn.texts, draft, tone, sizes))


async def size_picked(turn: Turn, action: PickSize, press: Press) -> None:
    """Store the size and cost, then show the summary with the balance."""
    draft = await pressed_draft(turn, action.draft_id, frozenset({DraftStep.SIZE, DraftStep.READY}))
    if draft is None:
        return
    size = await turn.services.catalog.size(turn.user_id, action.size)
    tone = await turn.services.catalog.tone(turn.user_id, draft.tone or 0)
    if size is None or tone is None:
        turn.notice(turn.texts.stale_button)
        return
    await show_summary(turn, draft, tone, size, message_id=press.message_id)


async def order_aborted(turn: Turn, action: Abort, press: Press) -> None:
    """Drop the draft unless it was already submitted."""
    draft = await pressed_draft(
        turn, action.draft_id, OPEN_STEPS, once_placed=turn.texts.order_cannot_cancel
    )
    if draft is None:
        return
    await turn.store(lambda s: drafts.close_draft(s, draft_id=draft.id, step=DraftStep.CANCELLED))
    await turn.expect(None)
    cancelled = checkout_of(draft).cancelled(turn.texts)
    turn.replace(press.message_id, text_screen(cancelled))
