"""The Home tab: the core's home screen as a Block Kit home view, published per user.

Published when the user opens the tab, and again (soon, once per user however many
reasons pile up) after they log in, place an order, or receive an article.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.core.conversation.screens import Screen
from bot.core.dialogs.home import LOG_IN, NEW_ARTICLE
from bot.core.ports import MessengerError
from bot.core.routing.conversations import Conversations
from bot.slack import render
from bot.slack.ids import PLATFORM
from bot.slack.messenger import SlackMessenger

__all__ = ["HOME_LOG_IN", "HOME_NEW_ARTICLE", "HomeTab", "home_origin", "home_view"]

log = logging.getLogger(__name__)

# Action ids of the two buttons that open a modal instead of reaching the core.
HOME_LOG_IN, HOME_NEW_ARTICLE = "home-log-in", "home-new-article"
_FORM_ACTIONS = {LOG_IN: HOME_LOG_IN, NEW_ARTICLE: HOME_NEW_ARTICLE}


def home_origin(team_id: str, user_id: str) -> Origin:
    """The user as seen from their Home tab: answers go to their DM with the bot."""
    return Origin(
        user=UserKey(PLATFORM, user_id, workspace=team_id),
        chat=ChatAddress(PLATFORM, user_id, user_id=user_id, workspace=team_id),
        private=True,
    )


def home_view(screen: Screen) -> dict[str, Any]:
    """The screen as a home view; the form buttons get action ids of their own."""
    blocks = render.to_blocks(screen)
    for block in blocks:
        for element in block.get("elements") or []:
            form = _FORM_ACTIONS.get(str(element.get("value")))
            if element.get("type") == "button" and form is not None:
                element["action_id"] = form
    return {"type": "home", "blocks": blocks}


class HomeTab:
    """Publishes users' Home tabs through the messenger (their workspace's token, paced)."""

    def __init__(self, conversations: Conversations, messenger: SlackMessenger) -> None:
        self._conversations = conversations
        self._messenger = messenger
        self._due: dict[tuple[str, str], asyncio.Task[None]] = {}

    async def publish(self, team_id: str, user_id: str) -> None:
        """Build the user's home screen now and publish it."""
        origin = home_origin(team_id, user_id)
        screen = await self._conversations.home(origin)
        await self._messenger.publish_home(origin.chat, home_view(screen))

    def refresh(self, chat: ChatAddress) -> None:
        """Publish the home of the chat's user soon; one publish for a burst of reasons."""
        if chat.user_id is None:
            return
        key = (chat.workspace, chat.user_id)
        if key in self._due and not self._due[key].done():
            return
        self._due[key] = asyncio.create_task(self._republish(*key))

    async def close(self) -> None:
        """Drop the publishes still due: the app is stopping."""
        due = [task for task in self._due.values() if not task.done()]
        for task in due:
            task.cancel()
        await asyncio.gather(*due, return_exceptions=True)
        self._due.clear()

    async def _republish(self, team_id: str, user_id: str) -> None:
        try:
            await self.publish(team_id, user_id)
        except MessengerError as err:
            log.info("could not refresh the Home tab of Slack user %s: %r", user_id, err)
        except Exception:
            # A background task: nobody else would see the failure.
            log.exception("refreshing the Home tab of Slack user %s failed", user_id)
