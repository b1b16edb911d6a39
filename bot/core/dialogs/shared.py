"""/start with a payload: a deep link to a shared article, or the inline answer's "log in"."""

from __future__ import annotations

from bot.api import TokenRejected
from bot.core.again import again_row
from bot.core.dialogs import help, login
from bot.core.dialogs.articles import send_article
from bot.core.errors import NotLoggedIn
from bot.core.events import Command
from bot.core.sharing import LOGIN_PAYLOAD, share_key_of
from bot.core.turn import Turn
from storage import jobs, shares
from storage.models import ArticleShare

__all__ = ["start"]


async def start(turn: Turn, command: Command) -> None:
    """Open a shared article, or start the login; without a payload, the help."""
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
