"""Showing the core's answer in a chat: a screen too long for the platform goes out in parts."""

from __future__ import annotations

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.presenter import present
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Button, Edit, Notice, Screen, Send
from bot.core.ports import ChatPresenter
from tests.fakes import RecordingMessenger

CHAT = ChatAddress("test", "chat-1")
LONG = Screen(
    tuple(paragraph(f"{n}. " + "kelime " * 6) for n in range(5)),
    ((Button("Onayla", "ok|abcdefgh"),),),
    secret_input=True,
)


async def test_a_screen_that_does_not_fit_is_sent_in_parts_with_the_buttons_last() -> None:
    messenger = RecordingMessenger(limit=100)
    presenter = ChatPresenter(messenger, CHAT)
    await present(presenter, [Send(LONG), Notice("tamam")])
    screens = [call.screen for call in messenger.sent]
    assert len(screens) > 1
    assert all(screen is not None and len(screen.text) <= 100 for screen in screens)
    assert [screen.buttons for screen in screens if screen] == [()] * (len(screens) - 1) + [
        LONG.buttons
    ]
    assert [b for screen in screens if screen for b in screen.blocks] == list(LONG.blocks)
    assert screens[-1] is not None
    assert screens[-1].secret_input
    assert presenter.notices == [Notice("tamam")]


async def test_an_edit_that_does_not_fit_edits_the_first_part_and_sends_the_rest() -> None:
    messenger = RecordingMessenger(limit=100)
    await present(ChatPresenter(messenger, CHAT), [Edit("7", LONG)])
    assert messenger.calls[0].kind == "edit"
    assert {call.kind for call in messenger.calls[1:]} == {"send"}


async def test_a_screen_that_fits_is_one_message() -> None:
    messenger = RecordingMessenger()
    await present(ChatPresenter(messenger, CHAT), [Send(LONG)])
    assert [call.screen for call in messenger.sent] == [LONG]
