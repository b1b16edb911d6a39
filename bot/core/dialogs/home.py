"""The home screen: what the app is for and a way in; once logged in, where the user stands.

Built from the bot's own rows and one balance call, never from the service's article list,
so showing it costs nothing against the polling budget. A platform with a home view (Slack's
Home tab) renders it; the two buttons that open a form carry ``LOG_IN`` and ``NEW_ARTICLE``
instead of an action, since only the platform can open its forms.
"""

from __future__ import annotations

from bot.core.articles.again import again_row
from bot.core.conversation.actions import ExportArticles, OpenArticle, fits_in_button
from bot.core.conversation.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.dialogs.spending import charges_of, month_of, spent_in_month
from bot.core.errors import NotLoggedIn
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage import jobs
from storage.models import Job
from storage.states import JobStatus

__all__ = ["LATEST", "LOG_IN", "NEW_ARTICLE", "home_screen"]

# The data of the buttons that open the login form and the order form.
LOG_IN = "home:log-in"
NEW_ARTICLE = "home:new-article"
LATEST = 5
# What the recent zip button asks for: the last 30 days (ExportArticles' page 0).
_RECENT = 0
_READY = frozenset({JobStatus.FINISHED, JobStatus.DELIVERED, JobStatus.UNSENDABLE})


def _state(texts: Texts, job: Job) -> str:
    if job.status in _READY:
        return texts.status_finished
    if job.status is JobStatus.PENDING:
        if job.progress is None:
            return texts.status_pending
        return texts.status_processing.format(progress=job.progress)
    return texts.status_failed


def _logged_out(texts: Texts) -> Screen:
    return Screen((paragraph(texts.home_intro),), ((Button(texts.button_log_in, LOG_IN),),))


async def home_screen(turn: Turn) -> Screen:
    """The user's home screen, logged in or not."""
    texts = turn.texts
    try:
        balance = await turn.upstream(turn.services.api.balance)
    except NotLoggedIn:  # SessionExpired too
        return _logged_out(texts)
    zone = turn.services.zone
    this_month = month_of(turn.services.clock(), zone)
    spent = spent_in_month(await charges_of(turn), this_month, zone)
    latest = await turn.store(lambda s: jobs.jobs_of_user(s, user_id=turn.user_id, limit=LATEST))
    blocks: list[Block] = [
        paragraph(texts.balance.format(balance=texts.money(balance))),
        paragraph(texts.spending_this_month.format(amount=texts.money(spent))),
        paragraph(bold(texts.home_recent)),
    ]
    if latest:
        lines = tuple(
            (Span(texts.article_line.format(number=n, title=j.title, status=_state(texts, j))),)
            for n, j in enumerate(latest, 1)
        )
        blocks.append(BulletList(lines))
    else:
        blocks.append(paragraph(texts.articles_empty))
    ready = [(n, j) for n, j in enumerate(latest, 1) if j.status in _READY]
    openers = tuple(
        Button(texts.button_open.format(number=n), OpenArticle(turn.user_id, j.request_id).encode())
        for n, j in ready
        if fits_in_button(j.request_id)
    )
    again = tuple(again_row(texts, turn.user_id, j.request_id, n) for n, j in ready)
    archive = (Button(texts.button_zip_recent, ExportArticles(turn.user_id, _RECENT).encode()),)
    rows = ((Button(texts.button_new_article, NEW_ARTICLE),), openers, *again)
    if ready:
        rows = (*rows, archive)
    return Screen(tuple(blocks), tuple(row for row in rows if row))
