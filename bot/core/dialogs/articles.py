"""/makalelerim: the user's articles, newest first, paged; a finished one can be opened again.

``/makalelerim <word>`` finds articles by a word of their title (``bot.core.articles.search``).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.api import NEWEST_ARTICLES, Article, ArticleStatus
from bot.core.articles.again import again_row
from bot.core.articles.archive import MAX_ARCHIVE_BYTES, articles_zip
from bot.core.articles.article import article_blocks
from bot.core.articles.export import article_documents
from bot.core.articles.quality import card_screen, measure
from bot.core.articles.search import matching
from bot.core.clients import picker as clients
from bot.core.conversation.actions import (
    ClientArticles,
    ClientSearch,
    ExportArticles,
    OpenArticle,
    ShowPage,
    fits_in_button,
)
from bot.core.conversation.events import Command, Press
from bot.core.conversation.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Button, Document, Screen, SendDocument
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn
from storage import jobs, sites
from storage.models import Job

__all__ = [
    "PAGE_SIZE",
    "SEARCH_SHOWN",
    "Listing",
    "archive_pressed",
    "article_by_id",
    "article_opened",
    "client_articles_shown",
    "client_search_shown",
    "list_articles",
    "own_articles",
    "page_shown",
    "recent_articles",
    "send_article",
]

PAGE_SIZE = 5
_EPOCH = datetime.min.replace(tzinfo=UTC)
# The page number of an archive of the last days instead of a page.
_RECENT = 0
_RECENT_DAYS = timedelta(days=30)
# More articles to fetch one by one than this, and the user is told the archive is coming.
_FETCHES_WITHOUT_NOTICE = 3
# The most articles a search shows at once, each with its buttons; more ask for another word.
SEARCH_SHOWN = 10


@dataclass(frozen=True, slots=True)
class Listing:
    """The user's articles, newest first; ``partial`` when the service may hold older ones.

    The service lists at most its newest ``NEWEST_ARTICLES``, so a full list says nothing of
    what lies past it.
    """

    articles: list[Article]
    partial: bool


async def list_articles(turn: Turn, command: Command) -> None:
    """Show the first page of the user's articles, or those whose title holds the words given."""
    if command.args.strip():
        turn.send(await _found(turn, command.args.strip()))
        return
    screen = await _page(turn, 1)
    turn.send(screen)


async def page_shown(turn: Turn, action: ShowPage, press: Press) -> None:
    """Show another page in place of the pressed one."""
    turn.replace(press.message_id, await _page(turn, action.page))


async def client_articles_shown(turn: Turn, action: ClientArticles, press: Press) -> None:
    """Show a page of the articles ordered for one client, in place of the pressed one."""
    client = await clients.client_by_id(turn, action.client)
    if client is None:
        turn.notice(turn.texts.stale_button)
        return
    turn.replace(press.message_id, await _page(turn, action.page, client))


async def client_search_shown(turn: Turn, action: ClientSearch, press: Press) -> None:
    """Show a search's results narrowed to one client, in place of the pressed ones."""
    client = await clients.client_by_id(turn, action.client)
    query = action.query()
    if client is None or not query or not query.strip():
        turn.notice(turn.texts.stale_button)
        return
    turn.replace(press.message_id, await _found(turn, query, client))


async def _articles(turn: Turn, client_id: int | None = None) -> list[Article]:
    return (await own_articles(turn, client_id)).articles


async def own_articles(turn: Turn, client_id: int | None = None) -> Listing:
    """The user's articles with titles and dates, from one own-articles call and our rows;
    with ``client_id``, only those the bot ordered for that client."""
    return await _listing(turn, await _fetched(turn), client_id)


async def recent_articles(turn: Turn, client_id: int | None = None) -> Listing:
    """``own_articles``, from the service's list of a few seconds ago where there is one (for
    inline mode and searches, which ask at each word)."""
    fetched = await turn.services.recent_articles.of(turn.user_id, lambda: _fetched(turn))
    return await _listing(turn, fetched, client_id)


async def _fetched(turn: Turn) -> list[Article]:
    api = turn.services.api
    return await turn.upstream(lambda token: api.articles(token, page_size=NEWEST_ARTICLES))


async def _listing(turn: Turn, listed: list[Article], client_id: int | None) -> Listing:
    # The service may omit titles and dates; the bot knows those of the orders it placed.
    ordered = await turn.store(
        lambda s: jobs.jobs_of_user(s, user_id=turn.user_id, limit=NEWEST_ARTICLES)
    )
    known = {job.request_id: job for job in ordered}
    partial = len(listed) >= NEWEST_ARTICLES
    if client_id is not None:
        listed = [
            a for a in listed if a.request_id in known and _for(known[a.request_id], client_id)
        ]
    complete = [_completed(article, known.get(article.request_id)) for article in listed]
    newest_first = sorted(complete, key=lambda a: a.created_at or _EPOCH, reverse=True)
    return Listing(newest_first, partial=partial)


def _for(job: Job, client_id: int) -> bool:
    return job.client_id == client_id


def _completed(article: Article, job: Job | None) -> Article:
    return replace(
        article,
        title=article.title or (job.title if job else None) or article.request_id,
        created_at=article.created_at or (job.created_at if job else None),
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


async def _page(turn: Turn, page: int, client: clients.Client | None = None) -> Screen:
    texts = turn.texts
    articles = await _articles(turn, client.id if client is not None else None)
    narrowing = await _client_row(turn, client)
    heading = _client_heading(texts, client)
    if not articles:
        return Screen((*heading, paragraph(texts.articles_empty)), narrowing)
    pages = math.ceil(len(articles) / PAGE_SIZE)
    page = min(max(page, 1), pages)
    first = (page - 1) * PAGE_SIZE
    shown = articles[first : first + PAGE_SIZE]
    to_site = await _with_site(turn, [a.request_id for a in shown if a.finished])
    lines, rows = _listed(turn, shown, first, to_site)
    paging = tuple(
        Button(label(texts), _page_action(turn, client, target), aliases=in_every_language(label))
        for label, target, shown_if in (
            (_previous, page - 1, page > 1),
            (_next, page + 1, page < pages),
        )
        if shown_if
    )
    header = paragraph(bold(texts.articles_header.format(page=page, pages=pages)))
    finished = client is None and any(a.finished for a in articles)
    archives = _archive_row(turn, page) if finished else ()
    buttons = tuple(row for row in (*rows, paging, archives, *narrowing) if row)
    return Screen((*heading, header, lines), buttons)


async def _with_site(turn: Turn, request_ids: list[str]) -> set[str]:
    """The articles (by upstream id) whose client has a site to write them to."""
    return await turn.store(
        lambda s: sites.with_site(s, user_id=turn.user_id, request_ids=request_ids)
    )


def _listed(
    turn: Turn, shown: list[Article], first: int, to_site: set[str]
) -> tuple[BulletList, tuple[tuple[Button, ...], ...]]:
    """Numbered lines for the articles shown from ``first`` on, and the buttons of the finished:
    the openers in one row, then one row per article to order it again."""
    texts = turn.texts
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
    # One row per finished article, under the openers: its number names it on each button.
    again = tuple(
        again_row(
            texts, turn.user_id, a.request_id, first + number, to_site=a.request_id in to_site
        )
        for number, a in enumerate(shown, 1)
        if a.finished
    )
    return BulletList(lines), tuple(row for row in (openers, *again) if row)


def _client_heading(texts: Texts, client: clients.Client | None) -> tuple[Block, ...]:
    if client is None:
        return ()
    return (
        paragraph(bold(texts.articles_of_client.format(name=clients.shown_name(texts, client)))),
    )


async def _found(turn: Turn, query: str, client: clients.Client | None = None) -> Screen:
    """The articles whose title holds the words of ``query``, with the list's buttons; with
    ``client``, only those ordered for it."""
    texts = turn.texts
    listing = await recent_articles(turn, client.id if client is not None else None)
    found = matching(listing.articles, query)
    # What the user typed is echoed back, so it is cut short.
    quoted = " ".join(query.split())[:60]
    newest_only = (
        (paragraph(texts.search_newest_only.format(count=NEWEST_ARTICLES)),)
        if listing.partial
        else ()
    )
    heading = _client_heading(texts, client)
    if not found:
        nothing = paragraph(bold(texts.search_nothing.format(query=quoted)))
        return Screen((*heading, nothing, paragraph(texts.search_hint), *newest_only))
    shown = found[:SEARCH_SHOWN]
    to_site = await _with_site(turn, [a.request_id for a in shown if a.finished])
    lines, rows = _listed(turn, shown, 0, to_site)
    header = paragraph(bold(texts.search_found.format(query=quoted, count=len(found))))
    more: tuple[Block, ...] = ()
    if len(found) > SEARCH_SHOWN:
        more = (paragraph(texts.search_first_shown.format(shown=SEARCH_SHOWN)),)
    narrowing = await _client_row(turn, client, query)
    return Screen((*heading, header, lines, *more, *newest_only), (*rows, *narrowing))


def _page_action(turn: Turn, client: clients.Client | None, page: int) -> str:
    if client is None or client.id is None:
        return ShowPage(turn.user_id, page).encode()
    return ClientArticles(turn.user_id, client.id, page).encode()


async def _client_row(
    turn: Turn, client: clients.Client | None, query: str | None = None
) -> tuple[tuple[Button, ...], ...]:
    """A button per client that narrows the list, or the search for ``query``, to its orders;
    none once narrowed."""
    if client is not None:
        return ()
    label = turn.texts.button_articles_of_client
    rows: list[tuple[Button, ...]] = []
    for shown in await clients.live_clients(turn):
        if shown.id is None:
            continue
        narrowed = (
            ClientArticles(turn.user_id, shown.id, 1)
            if query is None
            else ClientSearch.of(turn.user_id, shown.id, query)
        )
        # A search too long for a button's data is not offered narrowed.
        if narrowed is not None:
            rows.append((Button(label.format(name=shown.name), narrowed.encode()),))
    return tuple(rows)


def _archive_row(turn: Turn, page: int) -> tuple[Button, ...]:
    texts = turn.texts
    return (
        Button(texts.button_zip_page, ExportArticles(turn.user_id, page).encode()),
        Button(texts.button_zip_recent, ExportArticles(turn.user_id, _RECENT).encode()),
    )


def _previous(texts: Texts) -> str:
    return texts.button_previous


def _next(texts: Texts) -> str:
    return texts.button_next


async def article_opened(turn: Turn, action: OpenArticle, press: Press) -> None:
    """Send a finished article again in full, with its file."""
    article = await article_by_id(turn, action.request_id)
    if article is None or not article.finished or article.content is None:
        turn.notice(turn.texts.article_not_ready)
        return
    title = article.title or action.request_id
    to_site = action.request_id in await _with_site(turn, [action.request_id])
    buttons = again_row(turn.texts, turn.user_id, action.request_id, to_site=to_site)
    send_article(turn, title, article.content, buttons)
    await _send_card(turn, action.request_id, title, article.content)


async def _send_card(turn: Turn, request_id: str, title: str, content: str) -> None:
    """The quality card, for the size the bot ordered where it was the bot that ordered it."""
    ours = await turn.store(lambda s: jobs.job_by_request_id(s, request_id=request_id))
    size_id = ours.size if ours is not None and ours.chat_user_id == turn.user_id else None
    size = await turn.services.catalog.size(turn.user_id, size_id) if size_id else None
    turn.send(card_screen(turn.texts, measure(content, title), size))


def send_article(turn: Turn, title: str, content: str, again: tuple[Button, ...]) -> None:
    """Send a finished article in full, split to fit the chat, with its files."""
    blocks = article_blocks(content, title, table_note=turn.texts.table_note)
    platform = turn.origin.chat.platform
    for screen in turn.services.outbox.messengers.article_screens(platform, blocks, again):
        turn.send(screen)
    turn.effects.extend(SendDocument(d) for d in article_documents(title, content))


async def archive_pressed(turn: Turn, action: ExportArticles, press: Press) -> None:
    """Send the finished articles of a page, or of the last 30 days, as one zip."""
    texts = turn.texts
    articles = await _articles(turn)
    now = turn.services.clock()
    if action.page == _RECENT:
        undated = [a for a in articles if a.created_at is None]
        chosen = [a for a in articles if a.created_at and a.created_at >= now - _RECENT_DAYS]
        name = texts.zip_recent_name.format(date=now.date().isoformat())
    else:
        first = (action.page - 1) * PAGE_SIZE
        undated, chosen = [], articles[first : first + PAGE_SIZE]
        name = texts.zip_page_name.format(page=action.page)
    done = [a for a in chosen if a.finished or a.status is ArticleStatus.FINISHED]
    if not done:
        turn.say(texts.zip_nothing)
        return
    if sum(not a.finished for a in done) > _FETCHES_WITHOUT_NOTICE:
        await turn.progress(texts.zip_preparing.format(count=len(done)))
    contents = [(a.title or a.request_id, await _content(turn, a)) for a in done]
    readable = [(title, content) for title, content in contents if content]
    if not readable:
        turn.say(texts.zip_nothing)
        return
    # Rendering a hundred articles takes seconds: off the event loop, so other chats go on.
    archive = await asyncio.to_thread(articles_zip, readable, now)
    if len(archive) > MAX_ARCHIVE_BYTES:
        turn.say(texts.zip_too_large)
        return
    caption = texts.zip_caption.format(count=len(readable))
    turn.effects.append(SendDocument(Document(name, archive, caption)))
    if undated:
        turn.say(texts.zip_left_out.format(count=len(undated)))


async def _content(turn: Turn, article: Article) -> str:
    """The article's text: from the list, else asked for by its id (the list may leave it out)."""
    if article.finished and article.content:
        return article.content
    found = await article_by_id(turn, article.request_id)
    return (found.content if found else None) or ""


async def article_by_id(turn: Turn, request_id: str) -> Article | None:
    """One of the user's articles as the service has it now; None when it has no such one."""
    api = turn.services.api
    found = await turn.upstream(lambda token: api.articles(token, request_id=request_id))
    return next((article for article in found if article.request_id == request_id), None)
