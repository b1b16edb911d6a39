"""/bakiye: the current balance, written the user's language's way."""

from __future__ import annotations

from bot.core.conversation.events import Command
from bot.core.turn import Turn

__all__ = ["show_balance"]


async def show_balance(turn: Turn, command: Command) -> None:
    """Show the balance."""
    balance = await turn.upstream(turn.services.api.balance)
    turn.say(turn.texts.balance.format(balance=turn.texts.money(balance)))
