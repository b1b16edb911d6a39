"""The CSV of a user's orders: dates in the bot's zone, formula-like cells defused, for Excel."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from bot.core.ordering.orders_csv import orders_csv, safe_cell
from bot.core.texts import texts_for
from storage.models import Client, Job, JobStatus

ISTANBUL = ZoneInfo("Europe/Istanbul")


def job(title: str, *, client_id: int | None = None, cost: str | None = "1234.5") -> Job:
    return Job(
        request_id=title,
        chat_user_id=1,
        platform="test",
        chat_id="c",
        title=title,
        tone=2,
        size=9,
        cost=Decimal(cost) if cost else None,
        status=JobStatus.DELIVERED,
        client_id=client_id,
        # 22:30 on 31 January in UTC is 01:30 on 1 February in Istanbul.
        created_at=datetime(2026, 1, 31, 22, 30, tzinfo=UTC),
    )


# The fullwidth signs (and their small forms) too: a spreadsheet in an East Asian locale
# reads them as the ASCII ones. Tab and carriage return are on OWASP's list as well.
@pytest.mark.parametrize(
    "start", ["=", "+", "-", "@", "＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫", "\t", "\r"]
)
def test_a_cell_that_a_spreadsheet_would_run_gets_a_leading_quote(start: str) -> None:
    assert safe_cell(f"{start}1+1 başlık") == f"'{start}1+1 başlık"
    assert safe_cell(f"Başlık {start}1") == f"Başlık {start}1"


def test_rows_read_back_with_the_zone_the_names_and_a_decimal_comma() -> None:
    acme = Client(id=7, chat_user_id=1, name="Acme Blog", name_key="acme blog")
    content = orders_csv(
        texts_for("en"),
        [job("@SUM ile başlık", client_id=7), job("Düz başlık", cost=None)],
        clients={7: acme},
        tones={2: "Friendly"},
        sizes={},
        zone=ISTANBUL,
    )

    assert content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    assert rows == [
        ["Date", "Client", "Title", "Tone", "Size", "Cost", "State"],
        [
            "01.02.2026 01:30",
            "Acme Blog",
            "'@SUM ile başlık",
            "Friendly",
            "9",
            "1234,50",
            "Delivered",
        ],
        ["01.02.2026 01:30", "", "Düz başlık", "Friendly", "9", "", "Delivered"],
    ]
