"""The admin chat hears of each cause once an hour, and once more when it clears."""

from __future__ import annotations

import pytest

from bot.api import CallReport, LoginRejected, ServiceUnavailable
from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.core.conversation.screens import Send
from bot.core.limits.access import Gate
from bot.core.operations.alerts import Alerts
from bot.core.operations.operations import Operations
from bot.core.platforms import Platforms
from bot.slack.platform import SlackRules
from bot.telegram.platform import TelegramRules
from tests.fakes import ManualClock, RecordingMessenger

ADMIN = ChatAddress("telegram", "-100500")
MINUTE = 60.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def admin() -> RecordingMessenger:
    return RecordingMessenger()


@pytest.fixture
def operations(clock: ManualClock, admin: RecordingMessenger) -> Operations:
    alerts = Alerts(chat=ADMIN, messengers={"telegram": admin}, clock=clock)
    return Operations(clock=clock, alerts=alerts, version="1.2.3")


def _call(operation: str, failure: ServiceUnavailable | LoginRejected | None = None) -> CallReport:
    return CallReport(operation, paid=False, seconds=0.1, failure=failure)


def _down(operation: str) -> CallReport:
    return _call(operation, ServiceUnavailable(f"{operation}: ConnectError"))


def _told(admin: RecordingMessenger) -> list[str]:
    assert all(call.chat == ADMIN for call in admin.calls)
    return [call.text for call in admin.calls]


async def test_an_unreachable_upstream_is_told_after_five_minutes_hourly_and_on_recovery(
    clock: ManualClock, admin: RecordingMessenger, operations: Operations
) -> None:
    await operations.upstream_called(_down("balance"))
    clock.advance(4 * MINUTE)
    await operations.upstream_called(_down("articles"))
    assert _told(admin) == []
    clock.advance(2 * MINUTE)
    await operations.upstream_called(_down("articles"))
    clock.advance(30 * MINUTE)
    await operations.upstream_called(_down("articles"))
    assert _told(admin) == [
        "Makale servisine 6 dakikadır ulaşılamıyor. Son hata: articles: ServiceUnavailable"
    ]
    clock.advance(31 * MINUTE)
    await operations.upstream_called(_down("articles"))
    assert len(_told(admin)) == 2, "told again after an hour"
    await operations.upstream_called(_call("articles"))
    await operations.upstream_called(_call("balance"))
    assert len(_told(admin)) == 3
    assert _told(admin)[-1].startswith("Düzeldi: Makale servisine")
    assert operations.facts().last_upstream_error == "articles: ServiceUnavailable"


async def test_a_rejection_is_no_outage(
    clock: ManualClock, admin: RecordingMessenger, operations: Operations
) -> None:
    await operations.upstream_called(_down("balance"))
    clock.advance(3 * MINUTE)
    await operations.upstream_called(_call("login", LoginRejected("login: 401")))
    clock.advance(3 * MINUTE)
    await operations.upstream_called(_down("balance"))
    assert _told(admin) == [], "the service answered in between"


async def test_events_are_told_once_an_hour_per_cause(
    clock: ManualClock, admin: RecordingMessenger, operations: Operations
) -> None:
    await operations.article_ended("expired", "7")
    await operations.article_ended("failed", "8")
    await operations.order_uncertain("reported", "draft ab12")
    await operations.order_uncertain("adopted")
    await operations.article_ended("delivered", "9")
    assert _told(admin) == [
        "Ücreti ödenmiş bir makale teslim edilemedi (iş 7).",
        "Sonucu doğrulanamayan bir sipariş kullanıcıya bildirildi (draft ab12).",
    ]
    clock.advance(61 * MINUTE)
    await operations.article_ended("failed", "8")
    assert _told(admin)[-1] == "Ücreti ödenmiş bir makale teslim edilemedi (iş 8)."


async def test_the_login_guard_is_told_when_engaged_and_when_clear(
    clock: ManualClock, admin: RecordingMessenger, operations: Operations
) -> None:
    await operations.login_guard(False)
    await operations.login_guard(True, 30)
    clock.advance(MINUTE)
    await operations.login_guard(True, 31)
    await operations.login_guard(False)
    await operations.login_guard(False)
    assert _told(admin) == [
        "Bot genelindeki giriş sınırı devrede: son 30 başarısız giriş. "
        "Bir süre kimse giriş yapamayacak.",
        "Düzeldi: Bot genelindeki giriş sınırı devrede: son 30 başarısız giriş. "
        "Bir süre kimse giriş yapamayacak.",
    ]


async def test_a_start_is_told_with_the_version(
    admin: RecordingMessenger, operations: Operations
) -> None:
    await operations.started()
    assert _told(admin) == ["Makale Bot 1.2.3 sürümüyle başladı."]


def test_the_admin_chat_setting_names_a_telegram_chat_or_a_slack_channel() -> None:
    platforms = Platforms([TelegramRules(), SlackRules()])
    assert platforms.admin_chat("-100500") == ADMIN
    assert platforms.admin_chat("slack:C42") == ChatAddress("slack", "C42")
    assert platforms.admin_chat(None) is None
    alerts = Alerts(chat=ADMIN, messengers={}, clock=ManualClock())
    assert alerts.is_admin_chat(ChatAddress("telegram", "-100500", thread_id="3"))
    assert not alerts.is_admin_chat(ChatAddress("slack", "-100500"))


def _telegram(user: str, chat: str, *, private: bool = True, hint: str | None = None) -> Origin:
    return Origin(UserKey("telegram", user), ChatAddress("telegram", chat), private, hint)


def test_the_gate_refuses_strangers_once_an_hour_in_their_language(clock: ManualClock) -> None:
    gate = Gate(Platforms([TelegramRules(users={"1"}, chats={"-5"})]), clock=clock)
    assert gate.refusal(_telegram("1", "1")) is None
    assert gate.refusal(_telegram("1", "-5", private=False)) is None
    refused = gate.refusal(_telegram("2", "2", hint="en-GB"))
    assert refused is not None
    assert isinstance(refused[0], Send)
    assert refused[0].screen.text.startswith("Sorry, you may not use this bot")
    clock.advance(59 * MINUTE)
    assert gate.refusal(_telegram("2", "2")) == []
    clock.advance(2 * MINUTE)
    assert gate.refusal(_telegram("2", "2")), "told again after an hour"
    assert gate.refusal(_telegram("1", "-6", private=False)) is not None, "a group not listed"


def test_the_gate_checks_slack_workspaces_and_users(clock: ManualClock) -> None:
    gate = Gate(Platforms([SlackRules(teams={"T1"})]), clock=clock)

    def slack(team: str, user: str) -> Origin:
        return Origin(UserKey("slack", user, team), ChatAddress("slack", "C1"), False, None)

    assert gate.refusal(slack("T1", "U9")) is None
    assert gate.refusal(slack("T2", "U9")) is not None
    assert Gate(Platforms([SlackRules()]), clock=clock).refusal(slack("T2", "U9")) is None
