"""/start and /yardim: what the bot does, its commands, and whether the user is logged in."""

from __future__ import annotations

from bot.core.accounts import SignedIn
from bot.core.conversation.events import Command
from bot.core.conversation.richtext import BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Screen
from bot.core.texts import Texts
from bot.core.turn import Turn

__all__ = ["help_screen", "show_help"]


def help_screen(texts: Texts, *, signed_in: SignedIn | None, inline_mode: bool = False) -> Screen:
    """The help text in the user's language, naming the account the user is logged in to, and
    saying whether articles can be shared from any chat (inline mode) or only searched here."""
    commands = BulletList(
        tuple(
            (bold(f"/{name}"), Span(f" — {description}"))
            for name, description in texts.help_commands
        )
    )
    if signed_in is None:
        status = texts.help_logged_out
    elif signed_in.account is None:
        status = texts.help_logged_in
    else:
        status = texts.help_logged_in_as.format(account=signed_in.account)
    sharing = texts.help_inline if inline_mode else texts.help_no_inline
    return Screen((paragraph(texts.help_intro), commands, paragraph(sharing), paragraph(status)))


async def show_help(turn: Turn, command: Command) -> None:
    """Show the help; nothing is awaited afterwards."""
    signed_in = await turn.services.accounts.signed_in(turn.user_id)
    turn.send(help_screen(turn.texts, signed_in=signed_in, inline_mode=turn.origin.inline_mode))
