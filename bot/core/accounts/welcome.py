"""What a user is told once logged in, wherever the password was typed: the chat, a Slack
modal, or the login page."""

from __future__ import annotations

from decimal import Decimal

from bot.core.texts import Texts
from storage import Database, jobs
from storage.states import JobStatus

__all__ = ["articles_waiting", "welcome"]


def welcome(texts: Texts, balance: Decimal | None, waiting: bool) -> tuple[str, ...]:
    """The messages after a login: the balance (where it could be read), and that articles
    ordered before will come."""
    logged_in = (
        texts.login_page.logged_in
        if balance is None
        else texts.login_ok.format(balance=texts.money(balance))
    )
    return (logged_in, texts.deliver_after_login) if waiting else (logged_in,)


async def articles_waiting(db: Database, user_id: int) -> bool:
    """Whether some of the user's orders are still to be delivered."""
    waiting = (JobStatus.PENDING, JobStatus.FINISHED)
    found = await db.run(lambda s: jobs.jobs_of_user(s, user_id=user_id, statuses=waiting, limit=1))
    return bool(found)
