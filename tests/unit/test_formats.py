"""Money, Turkish folding and the upstream's readable estimates."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.core.ordering.durations import estimate_seconds
from bot.core.texts.en import ENGLISH
from bot.core.texts.money import format_tl
from bot.core.texts.tr import TURKISH
from bot.core.texts.turkish import fold


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        ("0", "0,00 TL"),
        ("15", "15,00 TL"),
        ("1234.5", "1.234,50 TL"),
        ("1234567.891", "1.234.567,89 TL"),
        ("0.005", "0,01 TL"),  # half up, not half to even
        ("2.675", "2,68 TL"),
        ("-3.5", "-3,50 TL"),
    ],
)
def test_money_is_shown_the_turkish_way(amount: str, shown: str) -> None:
    assert format_tl(Decimal(amount)) == shown


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("cok uzun", "Çok Uzun"),
        ("ÇOK UZUN", "Çok Uzun"),
        ("ikna edici", "İkna Edici"),
        ("  EĞİTİCİ ", "Eğitici"),
        ("yaratici", "Yaratıcı"),
        ("KISA", "Kısa"),
    ],
)
def test_turkish_folding_matches_choices(typed: str, label: str) -> None:
    assert fold(typed) == fold(label)


def test_folding_keeps_different_words_apart() -> None:
    assert fold("Orta") != fold("Uzun")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1-2 dakika", 60),
        ("30 saniye", 30),
        ("5 sn", 5),
        ("2-5 saniye", 2),
        ("1,5 dakika", 90),
        ("about 2 minutes", 120),
        ("1 SAAT", 3600),
        ("İki dakika", None),
        ("", None),
        ("yakında", None),
    ],
)
def test_estimates_are_read_as_their_lower_bound(text: str, seconds: float | None) -> None:
    assert estimate_seconds(text) == seconds


def test_english_money_keeps_one_format() -> None:
    assert ENGLISH.money(Decimal("1234.5")) == "1,234.50 TL"
    assert ENGLISH.money(Decimal("-0.005")) == "-0.01 TL"
    assert TURKISH.money(Decimal("1234.5")) == "1.234,50 TL"


@pytest.mark.parametrize(
    ("estimate", "english"),
    [
        ("17-25 saniye", "17-25 seconds"),
        ("1 dakika", "1 minute"),
        ("12+ dakika", "12+ minutes"),
        ("5 sn", "5 sec"),
        ("2 DAKİKA", "2 minutes"),
        ("1,5 saat", "1.5 hours"),
        ("about 2 minutes", "about 2 minutes"),
    ],
)
def test_estimates_are_shown_in_english_units(estimate: str, english: str) -> None:
    assert ENGLISH.duration(estimate) == english
    assert TURKISH.duration(estimate) == estimate
