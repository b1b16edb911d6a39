"""The CSV of every order the bot placed for a user, written for a spreadsheet in Turkish.

Excel opens a CSV as UTF-8 only with a BOM, splits a Turkish one at ``;`` (the comma marks
decimals), and runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (their
fullwidth forms too, ``＝``, in East Asian locales): such a cell gets a leading ``'`` (OWASP's
advice on CSV injection, which names tab and carriage return as well), since a title is the
user's text.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import tzinfo

from bot.core.texts import Texts
from bot.core.texts.money import decimal_comma
from storage.models import Client, Job

__all__ = ["orders_csv", "safe_cell"]

_FORMULA_STARTS = frozenset("=+-@\t\r")
_DATE_FORMAT = "%d.%m.%Y %H:%M"


def safe_cell(value: str) -> str:
    """The value, with a leading ``'`` where a spreadsheet would take it for a formula."""
    # NFKC reads a fullwidth or small sign (＝, ﹦) as the sign itself.
    first = unicodedata.normalize("NFKC", value[:1])[:1]
    return f"'{value}" if first in _FORMULA_STARTS else value


def orders_csv(
    texts: Texts,
    orders: Sequence[Job],
    *,
    clients: Mapping[int, Client],
    tones: Mapping[int, str],
    sizes: Mapping[int, str],
    zone: tzinfo,
) -> bytes:
    """One row per order: date and time in ``zone``, client, title, tone, size, cost, state."""
    states = dict(texts.csv_states)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(texts.csv_columns)
    for job in orders:
        client = clients.get(job.client_id) if job.client_id is not None else None
        row = (
            job.created_at.astimezone(zone).strftime(_DATE_FORMAT),
            client.name if client is not None else "",
            job.title,
            tones.get(job.tone, str(job.tone)),
            sizes.get(job.size, str(job.size)),
            decimal_comma(job.cost) if job.cost is not None else "",
            states.get(job.status.value, job.status.value),
        )
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue().encode("utf-8-sig")
