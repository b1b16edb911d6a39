"""A job's progress message: posted at the order, edited as the job moves, ended with it."""

from __future__ import annotations

import logging

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.delivery.addresses import Addresses
from bot.core.delivery.messengers import Messengers
from bot.core.delivery.recipients import Recipients
from bot.core.ports import MessengerError
from storage import Database, jobs
from storage.models import ChatUser, Job
from storage.states import JobStatus

__all__ = ["ProgressLine", "notice"]

log = logging.getLogger(__name__)


def notice(text: str) -> Screen:
    """A one-paragraph screen."""
    return Screen((paragraph(text),))


class ProgressLine:
    """Shows each job's state in one message of its chat, which it edits as the job moves."""

    def __init__(
        self,
        *,
        db: Database,
        messengers: Messengers,
        addresses: Addresses,
        recipients: Recipients,
    ) -> None:
        self._db = db
        self._messengers = messengers
        self._addresses = addresses
        self._recipients = recipients

    def text(self, user: ChatUser, job: Job) -> str:
        """The progress line of a pending job, in the user's language."""
        texts = self._recipients.texts(user)
        if job.progress is None:
            return texts.progress_unknown.format(title=job.title)
        return texts.progress.format(title=job.title, progress=job.progress)

    async def announce(self, job: Job) -> None:
        """Post the job's progress message right after the order, so the user sees it at once.

        Only the message is recorded: the poller may have moved the job on meanwhile, and
        what it stored must stay.
        """
        assert job.id is not None
        job_id = job.id
        messenger = self._messengers.get(job.platform)
        if messenger is None:
            log.warning("job %s (%s): no %s messenger here", job.id, job.request_id, job.platform)
            return
        current = await self._db.run(lambda s: jobs.get_job(s, job_id=job_id))
        if current is None or current.status is not JobStatus.PENDING:
            return
        if current.progress_message_id is not None:
            return
        user = await self._recipients.user(job.chat_user_id)
        text = self.text(user, current)
        chat = self._addresses.progress_chat(current, user)
        try:
            message_id = await messenger.send(chat, notice(text))
        except MessengerError as err:
            # The next poll posts it instead.
            log.warning("could not announce job %s (%s): %r", job.id, job.request_id, err)
            return
        if message_id is None:
            return
        recorded = await self._db.run(
            lambda s: jobs.set_progress_message(s, job_id=job_id, message_id=message_id, text=text)
        )
        if recorded:
            return
        await self._settle_late_announcement(job_id, user, chat, message_id)

    async def _settle_late_announcement(
        self, job_id: int, user: ChatUser, chat: ChatAddress, message_id: str
    ) -> None:
        """Our progress message came too late to be recorded: finish it, or take it back."""
        messenger = self._messengers[chat.platform]
        job = await self._db.run(lambda s: jobs.get_job(s, job_id=job_id))
        try:
            if (
                job is not None
                and job.status is JobStatus.DELIVERED
                and not job.progress_message_id
            ):
                # The article went out while ours was on its way: it ends as the line would.
                ready = self._recipients.texts(user).article_ready.format(title=job.title)
                await messenger.edit(chat, message_id, notice(ready))
                return
            # The poller posted one first, or the job ended with a report of its own.
            await messenger.delete(chat, message_id)
        except MessengerError as err:
            log.info("could not settle a late progress message of job %s: %r", job_id, err)

    async def show(self, job: Job, user: ChatUser, text: str) -> None:
        """Show the text in the job's progress message: edited when it changed, posted when none."""
        if text == job.progress_text:
            return
        messenger = self._messengers[job.platform]
        chat = self._addresses.progress_chat(job, user)
        if job.progress_message_id is None:
            job.progress_message_id = await messenger.send(chat, notice(text))
        else:
            await messenger.edit(chat, job.progress_message_id, notice(text))
        job.progress_text = text

    async def finish(self, job: Job, user: ChatUser, text: str) -> None:
        """Put the job's final state into its progress message, if it has one; best effort."""
        if job.progress_message_id is None or text == job.progress_text:
            return
        try:
            await self.show(job, user, text)
        except MessengerError as err:
            # The outcome itself was sent; a stale progress line is all that is left.
            log.info(
                "could not update the progress of job %s (%s): %r", job.id, job.request_id, err
            )
