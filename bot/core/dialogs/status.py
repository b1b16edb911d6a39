"""/durum: the bot's state for its operators, in the admin chat only."""

from __future__ import annotations

from datetime import timedelta

from bot.core.conversation.events import Command
from bot.core.turn import Turn
from storage import stats

__all__ = ["show_status"]

_HOUR = timedelta(hours=1)


def _duration(span: timedelta) -> str:
    """Whole seconds as ``H:MM:SS`` (``1 day, 2:03:04`` past a day)."""
    return str(timedelta(seconds=int(max(span.total_seconds(), 0))))


async def show_status(turn: Turn, command: Command) -> None:
    """Show the bot's state in the admin chat; anywhere else the command does not exist."""
    operations = turn.services.operations
    if not operations.alerts.is_admin_chat(turn.origin.chat):
        turn.say(turn.texts.unknown_command)
        return
    now = turn.services.clock()
    backlog, delivered = await turn.store(
        lambda s: (stats.backlog(s), stats.delivered_since(s, since=now - _HOUR))
    )
    facts = operations.facts()
    none = turn.texts.status_none
    turn.say(
        *turn.texts.status_report.format(
            version=facts.version,
            uptime=_duration(facts.uptime),
            pending=backlog.count,
            oldest=_duration(now - backlog.oldest) if backlog.oldest else none,
            delivered=delivered,
            last_error=facts.last_upstream_error or none,
        ).split("\n")
    )
