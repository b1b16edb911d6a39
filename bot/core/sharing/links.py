"""The other end of a shared article's deep link: /start with its payload sends the whole
article to whoever pressed it, read from the bot's own delivery row or, for an article
delivered elsewhere, from the service as its owner; /start from an inline answer's "log in"
button starts the login."""

from __future__ import annotations

import re

from bot.api import TokenRejected
from bot.core.articles.again import again_row
from bot.core.conversation.events import Command
from bot.core.dialogs import help, login
from bot.core.dialogs.articles import send_article
from bot.core.errors import NotLoggedIn
from bot.core.turn import Turn
from storage import jobs, shares
from storage.models import ArticleShare

__all__ = ["LOGIN_PAYLOAD", "SHARE_PREFIX", "share_key_of", "start_with_payload"]

# What /start carries from the "log in" button of an inline answer.
LOGIN_PAYLOAD = "giris"
# What /start carries from a deep link: this prefix, then the share's key.
SHARE_PREFIX = "m_"
_SHARE_PAYLOAD = re.compile(rf"{SHARE_PREFIX}([A-Za-z0-9_-]{{16}})")


def share_key_of(payload: str) -> str | None:
    """The share key a /start payload carries, None when it carries none."""
    found = _SHARE_PAYLOAD.fullmatch(payload)
    return found.group(1) if found else None


async def start_with_payload(turn: Turn, command: Command) -> None:
    """/start: open a shared article, or start the login; without a payload, the help."""
    payload = command.args.strip()
    key = share_key_of(payload)
    if key is not None:
        await _open_shared(turn, key)
    elif payload == LOGIN_PAYLOAD:
        await login.start_login(turn, Command(LOGIN_PAYLOAD, message_id=command.message_id))
    else:
        await help.show_help(turn, command)


async def _open_shared(turn: Turn, key: str) -> None:
    """Send the whole shared article to whoever pressed its link."""
    share = await turn.store(lambda s: shares.shared_article(s, key=key))
    if share is None:
        turn.say(turn.texts.share_gone)
        return
    content = await _content(turn, share)
    if not content:
        turn.say(turn.texts.share_unavailable)
        return
    # Only its owner may order it again; anyone else just reads it.
    own = share.chat_user_id == turn.user_id
    again = again_row(turn.texts, turn.user_id, share.request_id) if own else ()
    send_article(turn, share.title, content, again)


async def _content(turn: Turn, share: ArticleShare) -> str | None:
    """The article's text: as the bot delivered it, else from the service as its owner."""
    job = await turn.store(lambda s: jobs.job_by_request_id(s, request_id=share.request_id))
    if job is not None and job.chat_user_id == share.chat_user_id and job.content:
        return job.content
    api = turn.services.api
    try:
        found = await turn.services.accounts.call(
            share.chat_user_id, lambda token: api.articles(token, request_id=share.request_id)
        )
    except (NotLoggedIn, TokenRejected):
        # The owner logged out since: the article is theirs to share again.
        return None
    article = next((a for a in found if a.request_id == share.request_id), None)
    return article.content if article is not None and article.finished else None
