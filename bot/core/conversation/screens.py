"""What the core answers with: screens of rich text and buttons, and other effects."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.conversation.richtext import Block, plain_text

__all__ = [
    "Button",
    "Delete",
    "Document",
    "Edit",
    "Effect",
    "Notice",
    "Screen",
    "Send",
    "SendDocument",
]


@dataclass(frozen=True, slots=True)
class Button:
    """A button; ``data`` is its serialised action, at most 64 bytes.

    ``key`` is the number of the listed item it belongs to, for chats where a choice is typed;
    ``aliases`` are other names it answers to when typed (the other language's name). ``url``
    makes it a button that opens that address (its ``data`` unused), where the platform has
    such buttons; the screen's text holds the address too.
    """

    label: str
    data: str
    key: int | None = None
    aliases: tuple[str, ...] = ()
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Screen:
    """A message: rich text, rows of buttons, and what kind of answer it awaits."""

    blocks: tuple[Block, ...]
    buttons: tuple[tuple[Button, ...], ...] = ()
    secret_input: bool = False
    # The answer may run over several lines (a list of titles).
    multiline_input: bool = False

    @property
    def text(self) -> str:
        """The text without styles (logs, tests, notification previews)."""
        return plain_text(self.blocks)


@dataclass(frozen=True, slots=True)
class Document:
    """A file to send: the whole article as Markdown, for a CMS."""

    filename: str
    content: bytes
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Send:
    """Post a new message in the chat of the event."""

    screen: Screen


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace an earlier message of the bot (the pressed one, or a progress line)."""

    message_id: str
    screen: Screen


@dataclass(frozen=True, slots=True)
class Delete:
    """Delete a message, e.g. the user's message holding a password; ``note`` says it went."""

    message_id: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class SendDocument:
    """Post a file in the chat of the event."""

    document: Document


@dataclass(frozen=True, slots=True)
class Notice:
    """A short notice for a button press (a toast where the platform has one)."""

    text: str


Effect = Send | Edit | Delete | SendDocument | Notice
