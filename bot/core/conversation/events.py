"""What a chat user does, as every adapter reports it to the core."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "ChatAddress",
    "Command",
    "Event",
    "LoginForm",
    "OrderForm",
    "Origin",
    "Press",
    "SiteForm",
    "Text",
    "Unsupported",
    "Upload",
    "UserKey",
]


@dataclass(frozen=True, slots=True)
class UserKey:
    """Who: one person on one platform (and Slack workspace)."""

    platform: str
    external_id: str
    workspace: str = ""


@dataclass(frozen=True, slots=True)
class ChatAddress:
    """Where: a chat (or Slack channel), a thread in it if any, and whom a message is for.

    ``user_id`` lets a platform fall back to a direct message when it cannot
    post in the chat (Slack, in a channel the bot is not a member of). ``workspace`` is the
    user's (``UserKey.workspace``): where one deployment serves many, it picks the credentials.
    """

    platform: str
    chat_id: str
    thread_id: str | None = None
    user_id: str | None = None
    workspace: str = ""


@dataclass(frozen=True, slots=True)
class Origin:
    """Who did something where; ``private`` is a one-to-one chat with the bot.

    ``deletes_messages`` is false where the user's messages stay as typed (a terminal,
    which never echoes a password), so no text promises to delete one; ``line_by_line``
    is true where each typed line arrives alone, so a list ends with an empty line;
    ``inline_mode`` is true where the user can call the bot from any chat (Telegram's
    ``@bot word``), so the help tells how.
    """

    user: UserKey
    chat: ChatAddress
    private: bool = True
    language_hint: str | None = None
    deletes_messages: bool = True
    line_by_line: bool = False
    inline_mode: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command: its name without the slash, the text after it, and its message."""

    name: str
    # "/giris e-mail password" carries a password.
    args: str = field(default="", repr=False)
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """A plain message; ``message_id`` lets the core delete it (a password)."""

    text: str = field(repr=False)
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class Press:
    """A button press: the button's raw action data and the message that holds the button."""

    data: str
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class LoginForm:
    """A submitted login form (a Slack modal): the password never passed through a chat."""

    email: str
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class OrderForm:
    """A submitted order form (a Slack modal) with title, tone and size at once."""

    title: str
    tone: int
    size: int
    # The client chosen (0: none); None where the form offered no client.
    client: int | None = None


@dataclass(frozen=True, slots=True)
class SiteForm:
    """A submitted form of a client's site (a Slack modal): the application password never
    passed through a chat."""

    client: int
    url: str
    username: str
    app_password: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Upload:
    """A file the user sent; ``content`` is None where it was too large to fetch (``size``)."""

    filename: str
    content: bytes | None = field(repr=False)
    size: int
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A message the bot cannot read: a sticker, a photo, an edited message."""


Event = Command | Text | Press | LoginForm | OrderForm | SiteForm | Upload | Unsupported
