"""What the core posts in chats on its own: notices and reports, through the parts that know
the chats (``messengers``), where each message goes (``addresses``), whom it is for and in
which language (``recipients``), each job's progress message (``progress``), and the
notices posted in the background (``notices``).

The poller, the sender, reconciliation, the plans and the order dialog all speak to users
through it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from bot.core.conversation.events import ChatAddress
from bot.core.delivery.addresses import Addresses
from bot.core.delivery.messengers import Messengers
from bot.core.delivery.notices import Notices
from bot.core.delivery.progress import ProgressLine, notice
from bot.core.delivery.recipients import Recipients
from bot.core.platforms import Platforms
from bot.core.ports import Messenger, MessengerError
from bot.core.texts import Texts
from storage import Database
from storage.models import ChatUser, Job

__all__ = ["Outbox"]

log = logging.getLogger(__name__)


class Outbox:
    """Posts notices and reports; holds the parts every sender of the core shares."""

    def __init__(
        self,
        *,
        db: Database,
        messengers: Mapping[str, Messenger],
        platforms: Platforms,
        default_language: str = "tr",
    ) -> None:
        self.messengers = Messengers(messengers)
        self.addresses = Addresses(platforms)
        self.recipients = Recipients(db, default_language)
        self.progress = ProgressLine(
            db=db, messengers=self.messengers, addresses=self.addresses, recipients=self.recipients
        )
        # What the core tells on its own without waiting for it to be paced out (a plan's run).
        self.notices = Notices()

    async def tell(self, user: ChatUser, chat: ChatAddress, say: Callable[[Texts], str]) -> None:
        """Post a short notice in the user's language; a failed send is logged, not raised."""
        messenger = self.messengers.get(chat.platform)
        if messenger is None:
            log.warning("no %s messenger here for a notice to chat user %s", chat.platform, user.id)
            return
        try:
            await messenger.send(chat, notice(say(self.recipients.texts(user))))
        except MessengerError as err:
            log.warning("could not post a notice to chat user %s: %r", user.id, err)

    async def session_ended(self, user: ChatUser, chat: ChatAddress) -> None:
        """Tell the user their session ended; their jobs wait for the next login."""
        await self.tell(user, chat, lambda t: f"{t.session_expired} {t.deliver_after_login}")

    async def report(self, job: Job, user: ChatUser, text: str) -> None:
        """Tell the user how the job ended, with a new message that notifies them."""
        chat = self.addresses.article_chat(job, user)
        await self.messengers[job.platform].send(chat, notice(text))
        await self.progress.finish(job, user, text)
