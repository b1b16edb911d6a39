"""What a typed line means: a command, a choice, plain text, or a file of titles."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.core.conversation.events import Command, Event, Press, Text
from bot.core.plans.making import rhythm_and_titles
from bot.shell.choices import Choices
from bot.shell.files import is_path, names_a_file

__all__ = ["NamedFile", "named_file", "parse_line"]


def parse_line(
    line: str, choices: Choices, last_message_id: str | None, *, secret: bool = False
) -> Event | None:
    """The event a typed line means: a command, a choice, or plain text; None for a blank line.

    At a secret (password) prompt a blank line is an answer too, and anything but a command
    is plain text, even a number. A path that begins with a slash is text, not a command.
    """
    text = line.strip()
    if not text and not secret:
        return None
    if text.startswith("/") and not is_path(text):
        name, _, args = text[1:].partition(" ")
        return Command(name.lower(), args.strip())
    if secret:
        return Text(line, last_message_id)
    button = choices.pick(text)
    if button is not None:
        return Press(button.data, choices.message_id)
    return Text(line, last_message_id)


@dataclass(frozen=True, slots=True)
class NamedFile:
    """A file of titles a line names, and the command that asks for them first, if any."""

    path: str
    first: Command | None = None


def named_file(event: Event | None, *, awaits_list: bool) -> NamedFile | None:
    """The file of titles a line names: after ``/toplu``, after a plan's time, or alone where a
    list is awaited; elsewhere (``/yaz``'s title, at rest) a path or a file that exists, which
    starts a ``/toplu`` of its own."""
    match event:
        case Command(name="toplu", args=args) if names_a_file(args):
            return NamedFile(args)
        case Command(name="takvim", args=args):
            head, titles = rhythm_and_titles(args)
            if names_a_file(titles):
                return NamedFile(titles, Command("takvim", f"{head}:"))
        case Text(text=text) if names_a_file(text) and (
            awaits_list or is_path(text) or Path(text.strip()).expanduser().is_file()
        ):
            return NamedFile(text)
    return None
