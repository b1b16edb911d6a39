"""English counts in their plural forms: "1 article", "2 articles"."""

from __future__ import annotations

import pytest

from bot.core.texts import texts_for

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "values", "shown"),
    [
        ("spending_size_line", {"size": "Medium", "count": 1}, "Medium: 1 article"),
        ("spending_size_line", {"size": "Medium", "count": 2}, "Medium: 2 articles"),
        ("zip_left_out", {"count": 1}, "1 article without a date was left out."),
        ("shell_waiting", {"count": 1}, "Waiting for 1 article;"),
    ],
)
def test_an_english_count_takes_the_singular_for_one(
    text: str, values: dict[str, object], shown: str
) -> None:
    written = getattr(texts_for("en"), text).format(**values)
    assert written.startswith(shown)
    assert not written.startswith(f"{shown}s")


def test_one_plan_title_left_reads_singular_in_english() -> None:
    line = texts_for("en").calendar.line.format(
        number=1, rhythm="every day 09:00", next="-", left=1, target="this chat"
    )
    assert "left: 1 title ·" in line
