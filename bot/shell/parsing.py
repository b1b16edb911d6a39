"""What a typed line means: a command, a choice, plain text, or a file of titles."""

from __future__ import annotations

from bot.core.events import Command, Event, Press, Text
from bot.shell.choices import Choices
from bot.shell.files import names_a_file

__all__ = ["named_file", "parse_line"]


def parse_line(
    line: str, choices: Choices, last_message_id: str | None, *, secret: bool = False
) -> Event | None:
    """The event a typed line means: a command, a choice, or plain text; None for a blank line.

    At a secret (password) prompt a blank line is an answer too, and anything but a command
    is plain text, even a number.
    """
    text = line.strip()
    if not text and not secret:
        return None
    if text.startswith("/"):
        name, _, args = text[1:].partition(" ")
        return Command(name.lower(), args.strip())
    if secret:
        return Text(line, last_message_id)
    button = choices.pick(text)
    if button is not None:
        return Press(button.data, choices.message_id)
    return Text(line, last_message_id)


def named_file(event: Event | None, *, awaits_list: bool) -> str | None:
    """The path of a list of titles the line names: after ``/toplu``, or where a list is awaited."""
    match event:
        case Command(name="toplu", args=args) if names_a_file(args):
            return args
        case Text(text=text) if awaits_list and names_a_file(text):
            return text
    return None
