"""Finding articles by a word of their title, the Turkish way: "BULUT" finds "bulut", "İ" an "i"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.api import Article
from bot.core.texts.turkish import fold

__all__ = ["matching"]


def matching(articles: Iterable[Article], query: str) -> list[Article]:
    """The articles whose title holds every word of ``query``; all of them for an empty one."""
    words: Sequence[str] = fold(query).split()
    return [
        article
        for article in articles
        if all(word in fold(article.title or article.request_id) for word in words)
    ]
