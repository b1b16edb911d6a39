"""/start and /yardim: what the bot does, its commands, and whether the user is logged in."""

from __future__ import annotations

from bot.core.events import Command
from bot.core.richtext import BulletList, Span, bold, paragraph
from bot.core.screens import Screen
from bot.core.texts import Texts
from bot.core.turn import Turn

__all__ = ["help_screen", "show_help"]


def help_screen(texts: Texts, *, logged_in: bool) -> Screen:
    """The help text in the user's language."""
    commands = BulletList(
        tuple(
            (bold(f"/{name}"), Span(f" — {description}"))
            for name, description in texts.help_commands
        )
    )
    status = texts.help_logged_in if logged_in else texts.help_logged_out
    return Screen((paragraph(texts.help_intro), commands, paragraph(status)))


async def show_help(turn: Turn, command: Command) -> None:
    """Show the help; nothing is awaited afterwards."""
    logged_in = await turn.services.accounts.is_logged_in(turn.user_id)
    turn.send(help_screen(turn.texts, logged_in=logged_in))
