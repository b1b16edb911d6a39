"""/musteriler: an agency's clients, each with a default tone and size, added and removed.

A removed client is only marked, so its past orders keep its name (bot.core.clients.picker).
"""

from __future__ import annotations

from decimal import Decimal

from sqlmodel import Session

from bot.api import Size, Tone
from bot.core.clients import picker as clients
from bot.core.conversation.actions import (
    AddClient,
    ClientDefaults,
    ClientSite,
    ClientSize,
    ClientTone,
    RemoveClient,
)
from bot.core.conversation.confirming import removal_question
from bot.core.conversation.events import Command, Press, Text
from bot.core.conversation.inputs import one_line
from bot.core.conversation.richtext import Block, Span, bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn, text_screen
from storage import clients as stored
from storage import plans, sites
from storage.states import Awaiting

__all__ = [
    "add_pressed",
    "client_name_entered",
    "default_size_picked",
    "default_tone_picked",
    "defaults_pressed",
    "list_clients",
    "live_client",
    "remove_pressed",
]


async def list_clients(turn: Turn, command: Command) -> None:
    """Show the clients with their defaults, and the buttons to add, set and remove."""
    await _show_list(turn, None)


async def _show_list(turn: Turn, message_id: str | None, *lead: str) -> None:
    texts = turn.texts
    choices = await clients.live_clients(turn)
    blocks: list[Block] = [paragraph(line) for line in lead]
    blocks.append(paragraph(bold(texts.clients_header)))
    if not choices:
        blocks.append(paragraph(texts.clients_none))
    with_sites = await turn.store(lambda s: sites.sites_of_user(s, user_id=turn.user_id))
    tones = {tone.id: tone for tone in await _offered_tones(turn, choices)}
    sizes = {size.id: size for size in await _offered_sizes(turn, choices)}
    rows: list[tuple[Button, ...]] = []
    for client in choices:
        line: list[str | Span] = [bold(client.name)]
        if client.tone in tones and client.size in sizes:
            named = _named(texts, tones[client.tone], sizes[client.size])
            line.append(f" · {texts.client_defaults_line.format(choices=named)}")
        assert client.id is not None
        if client.id in with_sites:
            line.append(f" · {texts.sites.line.format(name=with_sites[client.id][0])}")
        blocks.append(paragraph(*line))
        rows.append(
            (
                # No key: the list's lines carry no numbers, so the choices count along
                # the rows, and "3" is the next row's first button, not a removal.
                Button(
                    f"{texts.button_client_defaults} · {client.name}",
                    ClientDefaults(turn.user_id, client.id).encode(),
                ),
                Button(
                    f"{texts.button_client_remove} · {client.name}",
                    RemoveClient(turn.user_id, client.id).encode(),
                ),
                # In the client's row: a row of its own would take Slack past 50 blocks.
                Button(
                    f"{texts.sites.button_site} · {client.name}",
                    ClientSite(turn.user_id, client.id).encode(),
                ),
            )
        )
    add = Button(
        texts.button_add_client,
        AddClient(turn.user_id).encode(),
        aliases=in_every_language(lambda t: t.button_add_client),
    )
    turn.replace(message_id, Screen(tuple(blocks), (*rows, (add,))))


async def _offered_tones(turn: Turn, choices: list[clients.Client]) -> list[Tone]:
    """The service's tones, asked only when some client has defaults to name."""
    if not any(client.tone for client in choices):
        return []
    return list(await turn.services.catalog.tones(turn.user_id))


async def _offered_sizes(turn: Turn, choices: list[clients.Client]) -> list[Size]:
    if not any(client.size for client in choices):
        return []
    return list(await turn.services.catalog.sizes(turn.user_id))


def _tone_aliases(tone: Tone) -> tuple[str, ...]:
    return in_every_language(lambda t: t.tone_name(tone))


def _size_aliases(size: Size) -> tuple[str, ...]:
    return in_every_language(lambda t: t.size_name(size))


def _named(texts: Texts, tone: Tone, size: Size) -> str:
    return f"{texts.tone_name(tone)}, {texts.size_name(size)}"


async def add_pressed(turn: Turn, action: AddClient, press: Press) -> None:
    """Ask for the new client's name; a user not logged in, or with a full list, is told."""
    await turn.services.accounts.require(turn.user_id)
    texts = turn.texts
    if len(await clients.live_clients(turn)) >= clients.MOST_CLIENTS:
        turn.say(texts.clients_full.format(most=clients.MOST_CLIENTS))
        return
    await turn.expect(Awaiting.CLIENT_NAME)
    turn.say(texts.ask_client_name.format(low=clients.NAME_MIN, high=clients.NAME_MAX))


async def client_name_entered(turn: Turn, text: Text) -> None:
    """Add the client, or ask again when the name is too short, too long or taken."""
    await turn.services.accounts.require(turn.user_id)
    texts = turn.texts
    name = one_line(text.text)
    problem = clients.name_problem(texts, name)
    if problem is None:
        now, key, most = turn.services.clock(), clients.name_key(name), clients.MOST_CLIENTS
        added = await turn.store(
            lambda s: stored.add_client(
                s, user_id=turn.user_id, name=name, name_key=key, now=now, most=most
            )
        )
        match added:
            case stored.ClientRefused.FULL:
                await turn.expect(None)
                turn.say(texts.clients_full.format(most=most))
                return
            case stored.ClientRefused.TAKEN:
                problem = texts.client_name_taken.format(name=name)
            case _:
                await turn.expect(None)
                await _show_list(turn, None, texts.client_added.format(name=name))
                return
    await turn.expect(Awaiting.CLIENT_NAME)
    turn.say(problem)


async def live_client(turn: Turn, client_id: int) -> clients.Client | None:
    """The user's live client of a pressed button; else a notice."""
    client = await clients.client_by_id(turn, client_id)
    if client is None or client.removed_at is not None:
        turn.notice(turn.texts.stale_button)
        return None
    return client


async def defaults_pressed(turn: Turn, action: ClientDefaults, press: Press) -> None:
    """Offer the tones for the client's default."""
    client = await live_client(turn, action.client)
    if client is None:
        return
    texts = turn.texts
    tones = await turn.services.catalog.tones(turn.user_id)
    buttons = [
        Button(
            texts.tone_name(tone),
            ClientTone(turn.user_id, action.client, tone.id).encode(),
            aliases=_tone_aliases(tone),
        )
        for tone in tones
    ]
    rows = tuple(tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2))
    prompt = text_screen(texts.client_pick_default_tone.format(name=client.name))
    turn.replace(press.message_id, Screen(prompt.blocks, rows))


async def default_tone_picked(turn: Turn, action: ClientTone, press: Press) -> None:
    """Offer the sizes for the client's default, the tone travelling in their buttons."""
    client = await live_client(turn, action.client)
    if client is None:
        return
    texts = turn.texts
    sizes = await turn.services.catalog.sizes(turn.user_id)
    rows = tuple(
        (
            Button(
                texts.size_label.format(
                    name=texts.size_name(size),
                    words=size.words,
                    cost=texts.money(size.cost or Decimal(0)),
                ),
                ClientSize(turn.user_id, action.client, action.tone, size.id).encode(),
                aliases=_size_aliases(size),
            ),
        )
        for size in sizes
    )
    prompt = text_screen(texts.client_pick_default_size.format(name=client.name))
    turn.replace(press.message_id, Screen(prompt.blocks, rows))


async def default_size_picked(turn: Turn, action: ClientSize, press: Press) -> None:
    """Store the client's default tone and size, and show the list again."""
    client = await live_client(turn, action.client)
    tone = await turn.services.catalog.tone(turn.user_id, action.tone)
    size = await turn.services.catalog.size(turn.user_id, action.size)
    if client is None or tone is None or size is None:
        if client is not None:
            turn.notice(turn.texts.stale_button)
        return
    await turn.store(
        lambda s: stored.set_defaults(
            s, user_id=turn.user_id, client_id=action.client, tone=tone.id, size=size.id
        )
    )
    saved = turn.texts.client_defaults_saved.format(
        name=client.name, choices=_named(turn.texts, tone, size)
    )
    await _show_list(turn, press.message_id, saved)


async def remove_pressed(turn: Turn, action: RemoveClient, press: Press) -> None:
    """Ask before removing the client; once confirmed, mark it removed (its past orders keep
    it); given up, show the list again."""
    client = await live_client(turn, action.client)
    if client is None:
        return
    if action.step == "n":
        await _show_list(turn, press.message_id)
        return
    if action.step != "y":
        question = turn.texts.confirm_remove_client.format(name=client.name)
        sure = RemoveClient(turn.user_id, action.client, "y").encode()
        keep = RemoveClient(turn.user_id, action.client, "n").encode()
        turn.replace(press.message_id, removal_question(turn.texts, question, sure=sure, keep=keep))
        return
    now = turn.services.clock()

    def remove(session: Session) -> None:
        if stored.remove_client(session, user_id=turn.user_id, client_id=action.client, now=now):
            # Its plans would go on ordering for a client that is gone.
            plans.pause_plans_of_client(session, user_id=turn.user_id, client_id=action.client)

    await turn.store(remove)
    await _show_list(turn, press.message_id, turn.texts.client_removed.format(name=client.name))
