"""Clients an agency orders for: their names, their defaults, and the question that picks one.

Every way to order (``/yaz``, ``/toplu``, a file, the Slack form, a plan) asks the same
question with the same buttons, and applies a client's default tone and size the same way.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from bot.core.conversation.screens import Button
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn
from storage import clients
from storage.models import Client

__all__ = [
    "MOST_CLIENTS",
    "NAME_MAX",
    "NAME_MIN",
    "NO_CLIENT",
    "Client",
    "client_by_id",
    "client_rows",
    "defaults_of",
    "live_clients",
    "name_key",
    "name_problem",
    "shown_name",
]

NAME_MIN, NAME_MAX = 2, 60
# So that every list of them is one message: /musteriler shows a line and a row of two buttons
# per client (Slack takes 50 blocks a message, Telegram 100 buttons), and /makalelerim adds a
# button per client under a page or a search.
MOST_CLIENTS = 20
# The id the "Müşterisiz" button carries: an order for no client.
NO_CLIENT = 0
_TURKISH_UPPER = str.maketrans({"İ": "i", "I": "ı"})


def name_key(name: str) -> str:
    """The name folded the Turkish way, so "İSTANBUL" and "istanbul" are one client."""
    lowered = unicodedata.normalize("NFC", name).translate(_TURKISH_UPPER).lower()
    return " ".join(lowered.split())


def name_problem(texts: Texts, name: str) -> str | None:
    """Why this client name cannot be taken (its length), or None."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return texts.client_name_length.format(low=NAME_MIN, high=NAME_MAX, length=len(name))
    return None


async def live_clients(turn: Turn) -> list[Client]:
    """The user's clients that are not removed, by name."""
    return await turn.store(lambda s: clients.clients_of_user(s, user_id=turn.user_id))


async def client_by_id(turn: Turn, client_id: int | None) -> Client | None:
    """The user's client with this id, removed or not; None for none or another user's."""
    if not client_id:
        return None
    return await turn.store(
        lambda s: clients.get_client(s, user_id=turn.user_id, client_id=client_id)
    )


def defaults_of(client: Client | None) -> tuple[int | None, int | None]:
    """The tone and size an order for this client takes unless chosen otherwise."""
    if client is None or client.removed_at is not None:
        return None, None
    return client.tone, client.size


def shown_name(texts: Texts, client: Client) -> str:
    """The client's name, marked when the client was removed."""
    if client.removed_at is None:
        return client.name
    return texts.client_removed_mark.format(name=client.name)


def client_rows(
    texts: Texts, choices: Sequence[Client], encode: Callable[[int], str]
) -> tuple[tuple[Button, ...], ...]:
    """A button per client and "Müşterisiz"; ``encode`` makes a button's data from a client id
    (``NO_CLIENT`` for none)."""
    rows = [
        (Button(client.name, encode(client.id or NO_CLIENT), key=number),)
        for number, client in enumerate(choices, 1)
    ]
    none = Button(
        texts.button_no_client,
        encode(NO_CLIENT),
        aliases=in_every_language(lambda t: t.button_no_client),
    )
    return (*rows, (none,))
