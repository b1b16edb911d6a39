"""/konu: add a topic to the user's account."""

from __future__ import annotations

from bot.core.conversation.events import Command, Text
from bot.core.conversation.inputs import one_line
from bot.core.turn import Turn
from storage.states import Awaiting

__all__ = ["start_topic", "topic_entered"]

TOPIC_MIN, TOPIC_MAX = 2, 255


async def start_topic(turn: Turn, command: Command) -> None:
    """Add the topic given with the command, or ask for it."""
    await turn.services.accounts.require(turn.user_id)
    if command.args.strip():
        await _add(turn, command.args)
    else:
        await turn.expect(Awaiting.TOPIC)
        turn.say(turn.texts.ask_topic)


async def topic_entered(turn: Turn, text: Text) -> None:
    """Add the awaited topic."""
    await _add(turn, text.text)


async def _add(turn: Turn, raw: str) -> None:
    topic = one_line(raw)
    if not TOPIC_MIN <= len(topic) <= TOPIC_MAX:
        await turn.expect(Awaiting.TOPIC)
        turn.say(turn.texts.topic_bad)
        return
    await turn.expect(None)
    api = turn.services.api
    added = await turn.upstream(lambda token: api.add_topic(token, topic))
    turn.say(turn.texts.topic_added.format(topic=added.name or topic))
