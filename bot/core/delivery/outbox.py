"""The chats this process can write to, and what the core posts in them on its own.

The poller, the sender, reconciliation and the order dialog all speak to users through it:
notices, a job's progress message, and the article split to fit the platform.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from bot.core.events import ChatAddress
from bot.core.ports import Messenger, MessengerError, fitted
from bot.core.richtext import Block, paragraph
from bot.core.screens import Button, Screen
from bot.core.states import JobStatus
from bot.core.texts import Texts, texts_for
from storage import Database, jobs, users
from storage.models import ChatUser, Job

__all__ = ["Outbox", "notice"]

log = logging.getLogger(__name__)


def notice(text: str) -> Screen:
    """A one-paragraph screen."""
    return Screen((paragraph(text),))


class Outbox:
    """Posts notices, progress messages and articles through this process's messengers."""

    def __init__(
        self,
        *,
        db: Database,
        messengers: Mapping[str, Messenger],
        default_language: str = "tr",
        threaded_platforms: frozenset[str] = frozenset({"slack"}),
    ) -> None:
        self._db = db
        self._messengers = messengers
        self._default_language = default_language
        self._threaded = threaded_platforms

    @property
    def platforms(self) -> frozenset[str]:
        """The platforms this process has a messenger for."""
        return frozenset(self._messengers)

    def messenger(self, platform: str) -> Messenger:
        """The messenger of a platform this process serves."""
        return self._messengers[platform]

    def article_screens(
        self, platform: str, blocks: Sequence[Block], buttons: tuple[Button, ...] = ()
    ) -> list[Screen]:
        """An article's blocks as messages that each fit the platform's limit; the buttons (one
        row) go with the last."""
        return fitted(
            self._messengers[platform], Screen(tuple(blocks), (buttons,) if buttons else ())
        )

    def texts(self, user: ChatUser) -> Texts:
        """The user's language's texts."""
        return texts_for(user.locale or self._default_language)

    async def user(self, user_id: int) -> ChatUser:
        """The chat user a job or draft belongs to."""
        user = await self._db.read(lambda s: users.get_user(s, user_id=user_id))
        assert user is not None, "a job's user is deleted only with the job"
        return user

    async def tell(self, user: ChatUser, chat: ChatAddress, say: Callable[[Texts], str]) -> None:
        """Post a short notice in the user's language; a failed send is logged, not raised."""
        messenger = self._messengers.get(chat.platform)
        if messenger is None:
            log.warning("no %s messenger here for a notice to chat user %s", chat.platform, user.id)
            return
        try:
            await messenger.send(chat, notice(say(self.texts(user))))
        except MessengerError as err:
            log.warning("could not post a notice to chat user %s: %r", user.id, err)

    async def session_ended(self, user: ChatUser, chat: ChatAddress) -> None:
        """Tell the user their session ended; their jobs wait for the next login."""
        await self.tell(user, chat, lambda t: f"{t.session_expired} {t.deliver_after_login}")

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
        user = await self.user(job.chat_user_id)
        text = self.progress_text(self.texts(user), current)
        chat = self.progress_chat(current, user)
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
                ready = self.texts(user).article_ready.format(title=job.title)
                await messenger.edit(chat, message_id, notice(ready))
                return
            # The poller posted one first, or the job ended with a report of its own.
            await messenger.delete(chat, message_id)
        except MessengerError as err:
            log.info("could not settle a late progress message of job %s: %r", job_id, err)

    # A job's progress message.

    def progress_text(self, texts: Texts, job: Job) -> str:
        """The progress line of a pending job."""
        if job.progress is None:
            return texts.progress_unknown.format(title=job.title)
        return texts.progress.format(title=job.title, progress=job.progress)

    def progress_chat(self, job: Job, user: ChatUser) -> ChatAddress:
        """Where the job's progress message is: the chat, and thread, the order came from; for
        an article to a plan's channel or group, its owner's private chat."""
        if job.owner_chat_id is not None:
            owner = job.owner_chat_id
            return ChatAddress(job.platform, owner, None, user.external_id, user.workspace)
        return ChatAddress(
            job.platform, job.chat_id, job.thread_id, user.external_id, user.workspace
        )

    def article_chat(self, job: Job, user: ChatUser) -> ChatAddress:
        """Where the article goes: on threaded platforms, the progress message's thread; a plan's
        channel or group gets the article alone."""
        if job.owner_chat_id is not None:
            return ChatAddress(
                job.platform, job.chat_id, job.thread_id, user.external_id, user.workspace
            )
        chat = self.progress_chat(job, user)
        if chat.thread_id is None and job.platform in self._threaded:
            return replace(chat, thread_id=job.progress_message_id)
        return chat

    async def show_progress(self, job: Job, user: ChatUser, text: str) -> None:
        """Show the text in the job's progress message: edited when it changed, posted when none."""
        if text == job.progress_text:
            return
        messenger = self._messengers[job.platform]
        chat = self.progress_chat(job, user)
        if job.progress_message_id is None:
            job.progress_message_id = await messenger.send(chat, notice(text))
        else:
            await messenger.edit(chat, job.progress_message_id, notice(text))
        job.progress_text = text

    async def finish_line(self, job: Job, user: ChatUser, text: str) -> None:
        """Put the job's final state into its progress message, if it has one; best effort."""
        if job.progress_message_id is None or text == job.progress_text:
            return
        try:
            await self.show_progress(job, user, text)
        except MessengerError as err:
            # The outcome itself was sent; a stale progress line is all that is left.
            log.info(
                "could not update the progress of job %s (%s): %r", job.id, job.request_id, err
            )

    async def report(self, job: Job, user: ChatUser, text: str) -> None:
        """Tell the user how the job ended, with a new message that notifies them."""
        await self._messengers[job.platform].send(self.article_chat(job, user), notice(text))
        await self.finish_line(job, user, text)
