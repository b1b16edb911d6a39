"""Forgetting what is no longer needed: old replay ids, failed logins, drafts, e-mails, login
links, sent messages, chats' paces and announcements."""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from sqlmodel import Session

from bot.core.clock import Clock
from storage import (
    Database,
    announcements,
    bookkeeping,
    chat_paces,
    drafts,
    login_links,
    sent_messages,
    users,
)

__all__ = [
    "KEEP_ANNOUNCEMENTS",
    "KEEP_AWAITED_EMAIL",
    "KEEP_CHAT_PACES",
    "KEEP_CLOSED_DRAFTS",
    "KEEP_FAILED_LOGINS",
    "KEEP_IDLE_DRAFTS",
    "KEEP_LOGIN_LINKS",
    "KEEP_SENT_MESSAGES",
    "KEEP_UPDATE_IDS",
    "Pruned",
    "prune",
]

# Platforms retry a delivery for minutes, never for days.
KEEP_UPDATE_IDS = timedelta(days=2)
# Far longer than any throttling window looks back.
KEEP_FAILED_LOGINS = timedelta(days=1)
# A press on a finished order's buttons is still told it is finished for a while.
KEEP_CLOSED_DRAFTS = timedelta(hours=1)
# An order nobody finished in a day is abandoned.
KEEP_IDLE_DRAFTS = timedelta(days=1)
# The e-mail typed before the password is kept in plain text only this long.
KEEP_AWAITED_EMAIL = timedelta(minutes=10)
# An expired login link still says "expired" for a day, then "no longer valid".
KEEP_LOGIN_LINKS = timedelta(days=1)
# WhatsApp retries a status webhook (a failure told later) for up to seven days.
KEEP_SENT_MESSAGES = timedelta(days=8)
# A bucket full again is no different from none; the margin covers the database's clock,
# which the paces are kept on, running behind the bot's.
KEEP_CHAT_PACES = timedelta(hours=1)
# An announcement counts for a day (``bot.core.delivery.announcing``); a day more is margin.
KEEP_ANNOUNCEMENTS = timedelta(days=2)


class Pruned(NamedTuple):
    """How many of each were forgotten."""

    updates: int
    logins: int
    drafts: int
    emails: int
    links: int
    sent: int
    paces: int
    announcements: int


async def prune(db: Database, clock: Clock) -> Pruned:
    """Delete expired replay ids, failed logins, drafts, login links, sent messages, chats'
    paces and announcements, and erase stale e-mails."""
    now = clock()

    def work(session: Session) -> Pruned:
        return Pruned(
            updates=bookkeeping.prune_processed(session, before=now - KEEP_UPDATE_IDS),
            logins=bookkeeping.prune_failed_logins(session, before=now - KEEP_FAILED_LOGINS),
            drafts=drafts.prune_drafts(
                session,
                closed_before=now - KEEP_CLOSED_DRAFTS,
                idle_before=now - KEEP_IDLE_DRAFTS,
            ),
            emails=users.forget_awaited_passwords(session, before=now - KEEP_AWAITED_EMAIL),
            links=login_links.prune_links(session, before=now - KEEP_LOGIN_LINKS),
            sent=sent_messages.prune_sent(session, before=now - KEEP_SENT_MESSAGES),
            paces=chat_paces.prune_paces(session, before=now - KEEP_CHAT_PACES),
            announcements=announcements.prune_announcements(
                session, before=now - KEEP_ANNOUNCEMENTS
            ),
        )

    return await db.run(work)
