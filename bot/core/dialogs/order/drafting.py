"""The draft an order dialog works on: made, saved, and found for a press or a reply."""

from __future__ import annotations

from sqlmodel import Session

from bot.core.errors import DraftClosed
from bot.core.turn import Turn
from storage import drafts
from storage.models import Draft
from storage.states import DraftKind, DraftStep

__all__ = ["OPEN_STEPS", "awaited_draft", "new_draft", "pressed_draft", "save"]

OPEN_STEPS = frozenset(drafts.OPEN_STEPS)
_PLACED_STEPS = frozenset({DraftStep.SUBMITTED, DraftStep.DONE})


async def new_draft(turn: Turn, kind: DraftKind) -> Draft:
    """A new draft of the user in this chat; their drafts not yet submitted are cancelled."""
    chat = turn.origin.chat

    def create(session: Session) -> Draft:
        drafts.cancel_open_drafts(session, user_id=turn.user_id)
        return drafts.create_draft(
            session, user_id=turn.user_id, chat_id=chat.chat_id, thread_id=chat.thread_id, kind=kind
        )

    return await turn.store(create)


async def save(turn: Turn, draft: Draft) -> Draft:
    """The draft saved; ``DraftClosed`` when it was closed meanwhile."""
    saved = await turn.store(lambda s: drafts.save_draft(s, draft=draft))
    if saved is None:
        raise DraftClosed(draft.id)
    return saved


async def pressed_draft(
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


async def awaited_draft(turn: Turn) -> Draft | None:
    """The draft whose title(s) the user's reply answers; else the wait ends with a notice."""
    draft_id = turn.user.awaiting_context or ""
    draft = await turn.store(lambda s: drafts.get_draft(s, draft_id=draft_id))
    if draft is None or draft.chat_user_id != turn.user_id or draft.step is not DraftStep.TITLE:
        await turn.expect(None)
        turn.say(turn.texts.stale_button)
        return None
    return draft
