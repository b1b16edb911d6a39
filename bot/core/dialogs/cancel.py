"""/iptal: end the dialog in progress; orders already placed cannot be cancelled upstream."""

from __future__ import annotations

from bot.core.conversation.events import Command
from bot.core.turn import Turn
from storage import drafts, jobs
from storage.states import JobStatus

__all__ = ["cancel"]


async def cancel(turn: Turn, command: Command) -> None:
    """Drop the open draft and whatever input was awaited."""
    was_waiting = turn.interrupted is not None
    dropped = await turn.store(lambda s: drafts.cancel_open_drafts(s, user_id=turn.user_id))
    await turn.expect(None)
    pending = await turn.store(
        lambda s: jobs.jobs_of_user(s, user_id=turn.user_id, statuses=(JobStatus.PENDING,), limit=1)
    )
    texts = turn.texts
    lines = [texts.cancel_done if dropped or was_waiting else texts.cancel_nothing]
    if pending:
        lines.append(texts.cancel_submitted_note)
    turn.say(*lines)
