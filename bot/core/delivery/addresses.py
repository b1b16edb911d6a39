"""Where the core's own messages go: a job's progress line and article, an order's notices,
a plan owner's notices."""

from __future__ import annotations

from dataclasses import replace

from bot.core.conversation.events import ChatAddress
from bot.core.platforms import Platforms
from storage.models import ChatUser, Draft, Job, Plan

__all__ = ["Addresses"]


class Addresses:
    """The chats of a job, order or plan, by the rules of its platform (threads, private chats)."""

    def __init__(self, platforms: Platforms) -> None:
        self._platforms = platforms

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
        """Where the article goes: where the platform threads articles, the progress message's
        thread; a plan's channel or group gets the article alone."""
        if job.owner_chat_id is not None:
            # Addressed to no one: nobody is named at its head, and where the chat no longer
            # takes it the sender gives it to the owner privately, whole.
            return ChatAddress(job.platform, job.chat_id, job.thread_id, None, user.workspace)
        chat = self.progress_chat(job, user)
        if chat.thread_id is None and self._platforms[job.platform].threads_articles:
            return replace(chat, thread_id=job.progress_message_id)
        return chat

    def draft_chat(self, draft: Draft, user: ChatUser) -> ChatAddress:
        """Where an order's notices go: the chat, and thread, it was placed from."""
        return ChatAddress(
            user.platform, draft.chat_id, draft.thread_id, user.external_id, user.workspace
        )

    def owner_chat(self, plan: Plan, user: ChatUser) -> ChatAddress:
        """Where the plan's owner is told about it, privately where the platform allows: never
        in a channel, whose readers need not see a plan's notices."""
        if self._platforms[plan.platform].user_is_chat:
            return ChatAddress(
                plan.platform, user.external_id, None, user.external_id, user.workspace
            )
        return ChatAddress(
            plan.platform, plan.chat_id, plan.thread_id, user.external_id, user.workspace
        )
