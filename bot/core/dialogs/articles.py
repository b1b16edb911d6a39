"""/makalelerim: the user's articles, newest first, paged; a finished one can be opened again."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from bot.api import NEWEST_ARTICLES, Article, ArticleStatus
from bot.core.actions import OpenArticle, ShowPage, fits_in_button
from bot.core.article import article_blocks
from bot.core.events import Command, Press
from bot.core.export import article_documents
from bot.core.richtext import BulletList, Span, bold, paragraph
from bot.core.screens import Button, Screen, SendDocument
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn
from storage import jobs

__all__ = ["PAGE_SIZE", "article_opened", "list_articles", "page_shown"]

PAGE_SIZE = 5
_EPOCH = datetime.min.replace(tzinfo=UTC)


async def list_articles(turn: Turn, command: Command) -> None:
    """Show the first page of the user's articles."""
    screen = await _page(turn, 1)
    turn.send(screen)


async def page_shown(turn: Turn, action: ShowPage, press: Press) -> None:
    """Show another page in place of the pressed one."""
    if action.owner != turn.user_id:
        turn.notice(turn.texts.not_your_button)
        return
    turn.replace(press.message_id, await _page(turn, action.page))


async def _articles(turn: Turn) -> list[Article]:
    api = turn.services.api
    listed = await turn.upstream(lambda token: api.articles(token, page_size=NEWEST_ARTICLES))
    # The service may omit titles; the bot knows the ones it ordered.
    ordered = await turn.store(
        lambda s: jobs.jobs_of_user(s, user_id=turn.user_id, limit=NEWEST_ARTICLES)
    )
    titles = {job.request_id: job.title for job in ordered}
    complete = [
        article if article.title else _with_title(article, titles.get(article.request_id))
        for article in listed
    ]
    return sorted(complete, key=lambda a: a.created_at or _EPOCH, reverse=True)


def _with_title(article: Article, title: str | None) -> Article:
    return Article(
        request_id=article.request_id,
        status=article.status,
        title=title or article.request_id,
        progress=article.progress,
        content=article.content,
        created_at=article.created_at,
        failure_reason=article.failure_reason,
    )


def _status(texts: Texts, article: Article) -> str:
    if article.finished:
        return texts.status_finished
    match article.status:
        case ArticleStatus.FAILED:
            return texts.status_failed
        case ArticleStatus.PENDING:
            return texts.status_pending
        case ArticleStatus.PROCESSING:
            return texts.status_processing.format(progress=article.progress or 0)
        case _:
            return texts.status_unknown


async def _page(turn: Turn, page: int) -> Screen:
    texts = turn.texts
    articles = await _articles(turn)
    if not articles:
        return Screen((paragraph(texts.articles_empty),))
    pages = math.ceil(len(articles) / PAGE_SIZE)
    page = min(max(page, 1), pages)
    first = (page - 1) * PAGE_SIZE
    shown = articles[first : first + PAGE_SIZE]
    lines = tuple(
        (
            Span(
                texts.article_line.format(
                    number=first + number,
                    title=article.title or article.request_id,
                    status=_status(texts, article),
                )
            ),
        )
        for number, article in enumerate(shown, 1)
    )
    openers = tuple(
        Button(
            texts.button_open.format(number=first + number),
            OpenArticle(turn.user_id, a.request_id).encode(),
            key=first + number,
        )
        for number, a in enumerate(shown, 1)
        if a.finished and fits_in_button(a.request_id)
    )
    paging = tuple(
        Button(
            label(texts), ShowPage(turn.user_id, target).encode(), aliases=in_every_language(label)
        )
        for label, target, shown_if in (
            (_previous, page - 1, page > 1),
            (_next, page + 1, page < pages),
        )
        if shown_if
    )
    header = paragraph(bold(texts.articles_header.format(page=page, pages=pages)))
    rows = tuple(row for row in (openers, paging) if row)
    return Screen((header, BulletList(lines)), rows)


def _previous(texts: Texts) -> str:
    return texts.button_previous


def _next(texts: Texts) -> str:
    return texts.button_next


async def article_opened(turn: Turn, action: OpenArticle, press: Press) -> None:
    """Send a finished article again in full, with its file."""
    if action.owner != turn.user_id:
        turn.notice(turn.texts.not_your_button)
        return
    api = turn.services.api
    found = await turn.upstream(lambda token: api.articles(token, request_id=action.request_id))
    article = next((a for a in found if a.request_id == action.request_id), None)
    if article is None or not article.finished or article.content is None:
        turn.notice(turn.texts.article_not_ready)
        return
    title = article.title or action.request_id
    blocks = article_blocks(article.content, title)
    for screen in turn.services.outbox.article_screens(turn.origin.chat.platform, blocks):
        turn.send(screen)
    turn.effects.extend(SendDocument(d) for d in article_documents(title, article.content))
