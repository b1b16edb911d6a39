"""The quality card's numbers on a text whose counts are written out by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.api import DEFAULT_SIZES, Size
from bot.core.articles.quality import band, card_screen, measure, word_range
from bot.core.texts import texts_for

TR = texts_for("tr")

# A heading, a paragraph with a link, a list and a table.
ARTICLE = """# Yapay Zekâ Nedir?

Yapay zekâ, [makinelerin](https://ornek.com/yapay-zeka) öğrenmesidir. Çok hızlı gelişiyor!

- Birinci madde
- İkinci madde. Kısa

| Alan | Kullanım |
|---|---|
| Sağlık | Teşhis |
"""
# By hand (words; sentences; syllables, the vowels of each word):
#   heading    Yapay Zekâ Nedir                  3 words; 1 sentence; 2+2+2 = 6
#   paragraph  Yapay zekâ makinelerin öğrenmesidir. Çok hızlı gelişiyor!
#              (the link's address is not text)  7 words; 2 sentences; 2+2+5+5+1+2+4 = 21
#   item 1     Birinci madde                     2 words; 1 sentence;  3+2 = 5
#   item 2     İkinci madde. Kısa                3 words; 2 sentences; 3+2+2 = 7
#   cells      Alan | Kullanım | Sağlık | Teşhis 4 words; 4 sentences; 2+3+2+2 = 9
# Total: 19 words, 10 sentences, 48 syllables, 1 heading.
# Ateşman: 198.825 - 40.175 * 48/19 - 2.610 * 19/10 = 198.825 - 101.4947 - 4.959 = 92.371
TITLE = "Yapay Zekâ ve Eğitim"


def test_the_counts_match_those_written_by_hand() -> None:
    quality = measure(ARTICLE, TITLE)

    assert (quality.words, quality.sentences, quality.syllables) == (19, 10, 48)
    assert quality.headings == 1
    assert quality.score == Decimal("92.4")
    assert quality.reading_minutes == 1
    # "ve" begins no word of the text, "Eğitim" is not in it.
    assert quality.title_words == (
        ("Yapay", True),
        ("Zekâ", True),
        ("ve", False),
        ("Eğitim", False),
    )


def test_the_card_shows_each_number_with_its_mark_and_band() -> None:
    short = DEFAULT_SIZES[0]  # Kısa: 300-500 words

    card = card_screen(TR, measure(ARTICLE, TITLE), short).text.splitlines()

    assert [line for line in card if line] == [
        "Kalite kartı",
        "Kelime: 19 (sipariş: 300-500) ✗",
        "Okuma süresi: 1 dk",
        "Ara başlık: 1",
        "Okunabilirlik (Ateşman): 92,4 · çok kolay",
        "Başlığın kelimeleri: Yapay ✓ · Zekâ ✓ · ve ✗ · Eğitim ✗",
    ]


def test_title_words_match_the_beginning_of_a_word_with_turkish_case_folding() -> None:
    text = "IŞIK ve İSTANBUL üzerine: eğitimde yeni bir dönem. " * 30

    quality = measure(text, "Işıklı İstanbul Eğitim")

    assert quality.title_words == (("Işıklı", False), ("İstanbul", True), ("Eğitim", True))
    assert quality.words == 240
    assert quality.reading_minutes == 2, "240 words at 200 a minute, rounded up"


@pytest.mark.parametrize(
    ("score", "expected"),
    [("90.0", 0), ("89.9", 1), ("70", 1), ("50", 2), ("49.9", 3), ("30", 3), ("29.9", 4)],
)
def test_bands_go_by_their_lower_bound(score: str, expected: int) -> None:
    assert band(Decimal(score)) == expected


def test_a_size_without_an_upper_bound_or_a_range() -> None:
    assert word_range(Size(4, "Çok Uzun", "2500+")) == (2500, None)
    assert word_range(Size(2, "Orta", "800-1200")) == (800, 1200)
    assert word_range(Size(9, "Özel", "")) is None
    assert word_range(None) is None
    card = card_screen(TR, measure("Bir iki üç.", "Başlık"), Size(9, "Özel")).text
    assert "Kelime: 3\n" in card + "\n"
