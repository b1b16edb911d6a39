"""Telegram's inline mode, written platform-free: the user's finished articles as results to
post into any chat, each an opening paragraph under a deep link to the whole article.

The deep link carries a random key (``storage.shares``), not the article's id: whoever presses
it may read that one article, and nothing names another. A key is made once per article and
kept, so a link posted long ago still works. The link's other end, /start, is ``links``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.api import Article, TokenRejected
from bot.core.articles.article import article_blocks
from bot.core.articles.search import matching
from bot.core.conversation.richtext import Block, Heading, Paragraph, paragraph, plain_text
from bot.core.conversation.screens import Screen
from bot.core.dialogs.articles import recent_articles
from bot.core.errors import NotLoggedIn
from bot.core.sharing.links import SHARE_PREFIX
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage import shares

__all__ = ["INLINE_PAGE", "InlineAnswer", "InlineResult", "inline_answer"]

# Results per answer; Telegram takes at most 50, and a phone shows a handful at a time.
INLINE_PAGE = 20
# The opening shown in the chat: a paragraph, cut at a space past this length.
_OPENING_CHARS = 700


@dataclass(frozen=True, slots=True)
class InlineResult:
    """One article to offer: its key (the result's id too), title, size and date, and the
    opening posted when it is chosen."""

    key: str
    title: str
    description: str
    opening: Screen

    @property
    def payload(self) -> str:
        """What the deep link under the opening hands to /start."""
        return f"{SHARE_PREFIX}{self.key}"


@dataclass(frozen=True, slots=True)
class InlineAnswer:
    """The answer to one inline query: a page of results and the offset of the next page
    (empty: no more); ``login_label`` is set instead when the user must log in first."""

    results: tuple[InlineResult, ...] = ()
    next_offset: str = ""
    read_label: str = ""
    login_label: str | None = None


async def inline_answer(turn: Turn, query: str, offset: str) -> InlineAnswer:
    """A page of the user's finished articles whose title holds the words of ``query``."""
    texts = turn.texts
    try:
        articles = [a for a in (await recent_articles(turn)).articles if a.finished]
    except (NotLoggedIn, TokenRejected):
        return InlineAnswer(login_label=texts.button_inline_login)
    found = matching(articles, query)
    first = int(offset) if offset.isdigit() else 0
    page = found[first : first + INLINE_PAGE]
    titles = {a.request_id: a.title or a.request_id for a in page}
    keys = await turn.store(
        lambda s: shares.share_keys(s, user_id=turn.user_id, titles=titles, new_key=_new_key)
    )
    results = tuple(
        InlineResult(keys[a.request_id], titles[a.request_id], _description(texts, a), _opening(a))
        for a in page
    )
    following = first + INLINE_PAGE
    next_offset = str(following) if following < len(found) else ""
    return InlineAnswer(results, next_offset, texts.button_read_all)


def _new_key() -> str:
    # 12 random bytes: 16 characters of the deep link's alphabet, never guessed.
    return secrets.token_urlsafe(12)


def _description(texts: Texts, article: Article) -> str:
    words = texts.share_words.format(words=len((article.content or "").split()))
    if article.created_at is None:
        return words
    date = article.created_at.strftime(texts.share_date_format)
    return texts.share_description.format(size=words, date=date)


def _opening(article: Article) -> Screen:
    """The title and the first paragraph, cut short; the whole is a press away."""
    title = article.title or article.request_id
    blocks = article_blocks(article.content or "", title)
    first = next((block for block in blocks if isinstance(block, Paragraph)), None)
    shown: list[Block] = [Heading(title, level=1)]
    if first is not None:
        text = plain_text((first,))
        if len(text) > _OPENING_CHARS:
            text = text[:_OPENING_CHARS].rsplit(" ", 1)[0] + " …"
            shown.append(paragraph(text))
        else:
            shown.append(first)
    return Screen(tuple(shown))
