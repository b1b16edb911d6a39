"""/harcamalar and its CSV.

Months are counted in the bot's zone (``BOT_TIMEZONE``), as the CSV's dates are.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, tzinfo
from decimal import Decimal

from bot.api import DEFAULT_SIZES
from bot.core.conversation.actions import SpendingCsv
from bot.core.conversation.events import Command, Press
from bot.core.conversation.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Button, Document, Screen, SendDocument
from bot.core.ordering.orders_csv import orders_csv
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn
from storage import clients, spending
from storage.models import Client

__all__ = [
    "charges_of",
    "csv_pressed",
    "month_of",
    "show_spending",
    "spending_screen",
    "spent_in_month",
]

Charge = tuple[Decimal, int, datetime]
Month = tuple[int, int]
_SIZES = {size.id: size for size in DEFAULT_SIZES}


def month_of(moment: datetime, zone: tzinfo) -> Month:
    """The year and month of a moment in the bot's zone."""
    local = moment.astimezone(zone)
    return local.year, local.month


def _months(now: datetime, zone: tzinfo) -> tuple[Month, Month]:
    """This month and the one before it, in the bot's zone."""
    year, month = month_of(now, zone)
    return (year, month), ((year, month - 1) if month > 1 else (year - 1, 12))


async def show_spending(turn: Turn, command: Command) -> None:
    """Show the spending from the bot's own records; only the balance is asked upstream."""
    balance = await turn.upstream(turn.services.api.balance)
    now, zone = turn.services.clock(), turn.services.zone
    screen = spending_screen(turn.texts, await charges_of(turn), balance, now=now, zone=zone)
    per_client = await _per_client(turn, _months(now, zone))
    csv_button = Button(
        turn.texts.button_csv,
        SpendingCsv(turn.user_id).encode(),
        aliases=in_every_language(lambda t: t.button_csv),
    )
    turn.send(Screen((*screen.blocks, *per_client), ((csv_button,),)))


def spending_screen(
    texts: Texts, charges: list[Charge], balance: Decimal, *, now: datetime, zone: tzinfo
) -> Screen:
    """The spending view: the two months, the articles per size, the average, the balance."""
    this_month, last_month = _months(now, zone)

    def spent_in(month: Month) -> Decimal:
        return spent_in_month(charges, month, zone)

    lines: list[Block] = [
        paragraph(bold(texts.spending_header)),
        paragraph(texts.spending_this_month.format(amount=texts.money(spent_in(this_month)))),
        paragraph(texts.spending_last_month.format(amount=texts.money(spent_in(last_month)))),
    ]
    if charges:
        per_size = Counter(size for _, size, _ in charges)
        lines.append(
            BulletList(
                tuple(
                    (
                        Span(
                            texts.spending_size_line.format(
                                size=texts.size_name(_SIZES[size]) if size in _SIZES else size,
                                count=n,
                            )
                        ),
                    )
                    for size, n in sorted(per_size.items())
                )
            )
        )
        average = sum((cost for cost, _, _ in charges), Decimal(0)) / len(charges)
        lines.append(paragraph(texts.spending_average.format(amount=texts.money(average))))
    else:
        lines.append(paragraph(texts.spending_none))
    lines.append(paragraph(texts.balance.format(balance=texts.money(balance))))
    return Screen(tuple(lines))


def spent_in_month(charges: list[Charge], month: Month, zone: tzinfo) -> Decimal:
    """What the charges of one (year, month) in the bot's zone add up to."""
    return sum((cost for cost, _, at in charges if month_of(at, zone) == month), Decimal(0))


async def _per_client(turn: Turn, months: tuple[Month, Month]) -> list[Block]:
    """This month's and last month's spending per client; nothing for a user without clients.

    Removed clients are listed while they have spending in the two months.
    """
    orders, known = await turn.store(
        lambda s: (
            spending.orders_of_user(s, user_id=turn.user_id),
            clients.client_names(s, user_id=turn.user_id),
        )
    )
    if not known:
        return []
    zone = turn.services.zone
    spent: dict[int | None, list[Decimal]] = {
        cid: [Decimal(0), Decimal(0)] for cid, c in known.items() if c.removed_at is None
    }
    for job in orders:
        month = month_of(job.created_at, zone)
        if job.cost is not None and month in months:
            spent.setdefault(job.client_id, [Decimal(0), Decimal(0)])[months.index(month)] += (
                job.cost
            )
    texts = turn.texts
    lines = tuple(
        (Span(_client_line(texts, known.get(cid) if cid is not None else None, amounts)),)
        for cid, amounts in sorted(spent.items(), key=lambda item: _order(known, item[0]))
    )
    return [paragraph(bold(texts.spending_clients_header)), BulletList(lines)]


def _order(known: dict[int, Client], client_id: int | None) -> tuple[int, str]:
    """By name, "Müşterisiz" last."""
    client = known.get(client_id) if client_id is not None else None
    return (1, "") if client is None else (0, client.name_key)


def _client_line(texts: Texts, client: Client | None, amounts: list[Decimal]) -> str:
    name = texts.button_no_client if client is None else client.name
    if client is not None and client.removed_at is not None:
        name = texts.client_removed_mark.format(name=client.name)
    this_month, last_month = (texts.money(amount) for amount in amounts)
    return texts.spending_client_line.format(
        name=name, this_month=this_month, last_month=last_month
    )


async def csv_pressed(turn: Turn, action: SpendingCsv, press: Press) -> None:
    """Send the CSV of every order the bot placed for the user."""
    orders, known = await turn.store(
        lambda s: (
            spending.orders_of_user(s, user_id=turn.user_id),
            clients.client_names(s, user_id=turn.user_id),
        )
    )
    texts = turn.texts
    catalog = turn.services.catalog
    tones = {tone.id: texts.tone_name(tone) for tone in await catalog.tones(turn.user_id)}
    sizes = {size.id: texts.size_name(size) for size in await catalog.sizes(turn.user_id)}
    content = orders_csv(
        texts, orders, clients=known, tones=tones, sizes=sizes, zone=turn.services.zone
    )
    caption = texts.csv_caption.format(count=len(orders))
    turn.effects.append(SendDocument(Document(texts.csv_filename, content, caption)))


async def charges_of(turn: Turn) -> list[Charge]:
    """The user's charges (cost, size, when) from the bot's own records."""
    return await turn.store(lambda s: spending.charges_of_user(s, user_id=turn.user_id))
