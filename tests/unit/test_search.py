"""Finding an article by a word of its title, and a title taken from a message."""

from __future__ import annotations

import pytest

from bot.api import Article
from bot.core.articles.search import matching
from bot.core.conversation.forms import TITLE_MAX, title_from_message
from bot.core.sharing.links import share_key_of

pytestmark = pytest.mark.unit

TITLES = ("İstanbul'da bulut altyapısı", "ISPARTA gülleri", "Yapay zekâ ve eğitim")


def found(query: str) -> list[str]:
    articles = [Article(str(n), title=title) for n, title in enumerate(TITLES)]
    return [a.title or "" for a in matching(articles, query)]


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("", list(TITLES)),
        ("istanbul", [TITLES[0]]),
        ("İSTANBUL", [TITLES[0]]),
        ("ısparta", [TITLES[1]]),
        ("Isparta", [TITLES[1]]),
        ("zeka egitim", [TITLES[2]]),
        ("  BULUT   altyapı ", [TITLES[0]]),
        ("bulut eğitim", []),
    ],
)
def test_titles_match_every_word_the_turkish_way(query: str, titles: list[str]) -> None:
    assert found(query) == titles


def test_a_message_gives_its_first_line_with_words_cut_to_the_limit() -> None:
    assert title_from_message("\n\n  Bulut   bilişim  \nikinci") == "Bulut bilişim"
    long = "kelime " * 60
    taken = title_from_message(long)
    assert len(taken) <= TITLE_MAX
    assert not taken.endswith(" ")
    assert title_from_message("") == ""


def test_only_a_well_formed_deep_link_payload_names_a_share() -> None:
    assert share_key_of("m_" + "a" * 16) == "a" * 16
    assert share_key_of("m_" + "a" * 15) is None
    assert share_key_of("giris") is None
    assert share_key_of("m_" + "a" * 15 + "!") is None
