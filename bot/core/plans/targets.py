"""Where a plan's articles go: the chat it was made in, or a channel or group its owner added
the bot to, offered by title where the bot may post, and checked again before each run; and
the plan's client's site, offered by its name."""

from __future__ import annotations

from bot.core.conversation.actions import PickSite, PickTarget
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.ports import PostingCheck, PostingRefused
from bot.core.turn import CoreServices, Turn
from storage import targets
from storage.models import ChatTarget, Draft, Plan

__all__ = ["HERE", "offer", "refusal", "usable_target"]

# The target "this chat", in a button.
HERE = 0


async def refusal(services: CoreServices, chat: ChatAddress, owner: str) -> PostingRefused | None:
    """Why the bot may not post to the chat for ``owner``; None where it may, or where the
    platform cannot tell (it then fails at the send, and the article goes to the owner)."""
    messenger = services.outbox.messengers.get(chat.platform)
    if not isinstance(messenger, PostingCheck):
        return None
    return await messenger.may_post(chat, owner)


async def usable_target(turn: Turn, target: ChatTarget) -> bool:
    """Whether the target is the user's and the bot may post there now."""
    if target.chat_user_id != turn.user_id or target.chat_id == turn.origin.chat.chat_id:
        return False
    chat = ChatAddress(target.platform, target.chat_id, workspace=turn.user.workspace)
    found = await refusal(turn.services, chat, turn.user.external_id)
    return found is None


async def offer(turn: Turn, plan: Plan, draft: Draft, *, message_id: str | None) -> bool:
    """Ask where the articles go, when the owner has channels or groups the bot may post to
    besides this chat; whether it asked."""
    if plan.target_asked:
        return False
    found = await turn.store(
        lambda s: targets.targets_of_user(s, user_id=turn.user_id, platform=plan.platform)
    )
    usable = [target for target in found if await usable_target(turn, target)]
    sites = turn.services.sites
    site = await sites.site(turn.user_id, draft.client_id) if sites is not None else None
    if not usable and site is None:
        return False
    calendar = turn.texts.calendar
    here = Button(calendar.button_here, PickTarget(draft.id, HERE).encode())
    rows = [(here,)]
    if site is not None:
        # The client's site: the articles come here too, and go there as posts at run time.
        label = turn.texts.sites.line.format(name=site.name)
        rows.append((Button(label, PickSite(draft.id).encode()),))
    for target in usable:
        assert target.id is not None
        rows.append((Button(target.title, PickTarget(draft.id, target.id).encode()),))
    turn.replace(message_id, Screen((paragraph(calendar.ask_target),), tuple(rows)))
    return True
