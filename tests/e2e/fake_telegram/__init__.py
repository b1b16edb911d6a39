"""A fake Telegram Bot API server for end-to-end tests: real HTTP on loopback, real answers.

``async with FakeTelegram.running() as server:`` serves it in the test's event loop; the bot
under test talks to it as to Telegram, and the test plays the people in its chats
(``server.user_says``, ``server.user_presses``) and reads what the bot did (``server.chat``,
``server.calls``), waiting with ``server.wait_for`` rather than sleeping. Like Telegram, it
answers 429 beyond the flood limits (``Limits``; ``limits=None`` lifts them), and ``server.sent``
keeps each message call it accepted.
"""

from tests.e2e.fake_telegram.records import Call, StoredFile, StoredMessage, UploadedFile
from tests.e2e.fake_telegram.server import DEFAULT_TOKEN, FakeTelegram
from tests.telegram_limits import Limits, Sent

__all__ = [
    "DEFAULT_TOKEN",
    "Call",
    "FakeTelegram",
    "Limits",
    "Sent",
    "StoredFile",
    "StoredMessage",
    "UploadedFile",
]
