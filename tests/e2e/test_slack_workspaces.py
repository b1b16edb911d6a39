"""One deployment serving many Slack workspaces: "Add to Slack", a token per team, uninstalls."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.logs import configure_logging
from storage import Database
from tests.e2e.fake_slack.distribution import CLIENT_SECRET
from tests.e2e.fake_slack.team import FakeTeam
from tests.e2e.order_labels import SHORT, TITLE
from tests.e2e.slack_rig import CHANNEL, SECRET, SlackRig, slack_rig, text_of
from tests.ports import free_port

SECOND = "T2"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path, many=True) as running:
        yield running


def _installations(rig: SlackRig) -> list[tuple[str, bytes]]:
    db = Database.connect(rig.settings.effective_database_url)
    try:
        rows = db.run_sync(
            lambda s: (
                s.connection()
                .exec_driver_sql("SELECT team_id, bot_token FROM slack_installation")
                .all()
            )
        )
    finally:
        db.dispose()
    return [(team, bytes(token)) for team, token in rows]


async def _order(rig: SlackRig) -> None:
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")


async def _delivered(rig: SlackRig, team: FakeTeam) -> None:
    await team.wait_for(
        lambda: any("Makaleniz hazır" in text_of(m) for m in team.messages(CHANNEL)), timeout=60
    )
    await team.wait_for(lambda: any(f.filename.endswith(".md") for f in team.files), timeout=20)


async def test_two_workspaces_install_and_each_orders_and_receives_in_its_own(
    rig: SlackRig,
) -> None:
    first = await rig.install(rig.slack.team_id)
    second = await rig.install(SECOND)

    for page in (first, second):
        assert page.status_code == 200
        assert "/giris" in page.text
        assert "type /giris" in page.text
    [(link, _)] = [await rig.install_page()]
    assert "client_id=1111111111.2222222222" in link
    assert "scope=commands,chat:write,im:write,im:history,files:write,files:read" in link
    team_two = rig.slack.team(SECOND)
    team_two.add_channel(CHANNEL)
    two = rig.in_team(team_two)

    await rig.log_in()
    await two.log_in()
    await _order(rig)
    await _order(two)
    rig.sandbox.state.clock.advance(600)

    await _delivered(rig, rig.slack)
    await _delivered(two, team_two)
    tokens = {rig.slack.team_id: rig.slack.token, SECOND: team_two.token}
    assert tokens[rig.slack.team_id] != tokens[SECOND]
    api_calls = [c for c in rig.slack.calls if c.method != "oauth.v2.access"]
    assert all(c.response.get("ok") or c.status == 429 for c in api_calls), [
        (c.method, c.response.get("error")) for c in api_calls if not c.response.get("ok")
    ]
    assert {c.team for c in api_calls if c.method == "chat.postMessage"} == set(tokens)
    for call in api_calls:
        assert call.token == tokens[call.team or ""]


async def test_a_wrong_reused_or_missing_state_installs_nothing_and_calls_nothing(
    rig: SlackRig,
) -> None:
    link, cookie = await rig.install_page()
    grant = rig.slack.authorize(link, SECOND)
    redirect = f"{rig.base_url}/slack/oauth_redirect"

    wrong = await rig.http.get(
        redirect,
        params={"code": grant.code, "state": "forged"},
        headers={"Cookie": "slack-app-oauth-state=forged"},
    )
    missing = await rig.http.get(redirect, params={"code": grant.code})
    no_cookie = await rig.http.get(redirect, params={"code": grant.code, "state": grant.state})
    assert [wrong.status_code, missing.status_code, no_cookie.status_code] == [401, 400, 400]
    assert not rig.slack.calls_to("oauth.v2.access")
    assert _installations(rig) == []

    good = await rig.http.get(
        redirect, params={"code": grant.code, "state": grant.state}, headers={"Cookie": cookie}
    )
    reused = await rig.http.get(
        redirect, params={"code": grant.code, "state": grant.state}, headers={"Cookie": cookie}
    )
    assert (good.status_code, reused.status_code) == (200, 401)
    assert "Kurulum tamamlanamadı" in reused.text
    assert len(rig.slack.calls_to("oauth.v2.access")) == 1
    assert [team for team, _ in _installations(rig)] == [SECOND]


async def test_install_pages_write_nothing_and_only_an_install_spends_its_state(
    rig: SlackRig,
) -> None:
    pages = [await rig.install_page() for _ in range(40)]

    assert len({link for link, _ in pages}) == 40, "a state of its own each"
    assert _rows(rig, "SELECT count(*) FROM slack_oauth_state") == [(0,)]
    link, cookie = pages[0]
    grant = rig.slack.authorize(link, SECOND)
    redirect = f"{rig.base_url}/slack/oauth_redirect"
    query = {"code": grant.code, "state": grant.state}
    installed = await rig.http.get(redirect, params=query, headers={"Cookie": cookie})
    assert installed.status_code == 200, installed.text
    assert _rows(rig, "SELECT count(*) FROM slack_oauth_state") == [(1,)]
    # A tampered state (its time moved on) is refused before any call.
    stamp, nonce, signature = grant.state.split(".")
    moved = f"{int(stamp) + 60}.{nonce}.{signature}"
    tampered = await rig.http.get(
        redirect,
        params={**query, "state": moved},
        headers={"Cookie": f"slack-app-oauth-state={moved}"},
    )
    assert tampered.status_code == 401
    assert len(rig.slack.calls_to("oauth.v2.access")) == 1


async def test_an_org_wide_install_is_uninstalled_with_a_page_that_says_why(
    rig: SlackRig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    link, cookie = await rig.install_page()
    grant = rig.slack.authorize_org(link, "E1")

    page = await rig.http.get(
        f"{rig.base_url}/slack/oauth_redirect",
        params={"code": grant.code, "state": grant.state},
        headers={"Cookie": cookie},
    )

    assert page.status_code == 403
    assert "kuruluşun tamamına (Enterprise Grid) eklenemez" in page.text
    assert "cannot be added to a whole organisation" in page.text
    assert rig.slack.distribution.uninstalls == ["E1"]
    assert rig.slack.distribution.token_of("E1") is None
    assert _installations(rig) == []
    assert "refused the install of Enterprise Grid org E1" in caplog.text


async def test_a_reinstall_uses_only_the_new_token_and_no_token_is_stored_as_text(
    rig: SlackRig,
) -> None:
    await rig.install(rig.slack.team_id)
    old = rig.slack.token
    await rig.log_in()
    # The login republishes the Home tab in the background: let that call, made with the old
    # token, go before the reinstall, so that every call counted below starts after it.
    await rig.slack.wait_for(lambda: rig.slack.calls_to("views.publish"))
    assert (await rig.install(rig.slack.team_id)).status_code == 200
    new = rig.slack.token
    assert old
    assert new
    assert old != new
    since = len(rig.slack.calls)

    await rig.says("/bakiye", "", "Bakiyeniz")
    await rig.log_in()

    later = rig.slack.calls[since:]
    assert later
    assert {call.token for call in later if call.method != "oauth.v2.access"} == {new}
    assert len(_installations(rig)) == 1
    database = Path(str(rig.settings.sqlite_path))
    files = [path for path in database.parent.iterdir() if path.name.startswith(database.name)]
    assert any(path.name.endswith("-wal") for path in files)
    for path in files:
        content = path.read_bytes()
        assert old.encode() not in content
        assert new.encode() not in content


async def test_a_team_outside_the_allowed_ones_is_uninstalled_and_nothing_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with slack_rig(tmp_path, many=True, allowed_slack_teams="T1") as rig:
        caplog.set_level(logging.WARNING)
        refused = await rig.install("T9")
        allowed = await rig.install("T1")

        assert refused.status_code == 403
        assert "izinli değil" in refused.text
        assert "not allowed" in refused.text
        assert allowed.status_code == 200
        assert rig.slack.distribution.uninstalls == ["T9"]
        assert rig.slack.distribution.token_of("T9") is None
        assert [team for team, _ in _installations(rig)] == ["T1"]
        assert "refused the install of Slack team T9" in caplog.text


def _rows(rig: SlackRig, sql: str) -> list[tuple[object, ...]]:
    db = Database.connect(rig.settings.effective_database_url)
    try:
        return [
            tuple(row) for row in db.run_sync(lambda s: s.connection().exec_driver_sql(sql).all())
        ]
    finally:
        db.dispose()


async def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for a condition the bot's database holds (events are handled after their ack)."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 - another process's database, no event to wait on
            await asyncio.sleep(0.05)


_REVOKED = {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": ["U0FAKEBOT"]}}
_UNINSTALLED = {"type": "app_uninstalled"}


@pytest.mark.parametrize(
    "events",
    [[_REVOKED, _UNINSTALLED], [_UNINSTALLED, _REVOKED], [_REVOKED]],
    ids=["revoked-first", "uninstalled-first", "revoked-alone"],
)
async def test_a_workspace_that_removes_the_app_is_forgotten_and_others_keep_working(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, events: list[dict[str, Any]]
) -> None:
    caplog.set_level(logging.INFO)
    # The sandbox's clock at real speed: the order stays unfinished while the app is removed.
    async with slack_rig(tmp_path, many=True, speed=1.0) as rig:
        await rig.install(rig.slack.team_id)
        await rig.install(SECOND)
        two = rig.in_team(rig.slack.team(SECOND))
        await rig.log_in()
        await two.log_in()
        await _order(rig)
        [(request_id,)] = _rows(rig, "SELECT request_id FROM job")
        old_token = rig.slack.token

        rig.slack.remove_app(rig.slack.team_id)
        for event in events:
            answer = await rig.post(rig.slack.event({**event, "event_ts": "1700000000.000001"}))
            assert answer.status_code == 200
        await _until(lambda: not _rows(rig, "SELECT 1 FROM slack_installation WHERE team_id='T1'"))
        await _until(lambda: _rows(rig, "SELECT status FROM job") == [("expired",)])
        # Logged right after the transaction that expired the job.
        await _until(lambda: request_id in caplog.text)
        assert "Slack team T1 removed the app" in caplog.text
        sessions = (
            "SELECT u.workspace FROM upstream_session s JOIN chat_user u ON u.id = s.chat_user_id"
        )
        assert _rows(rig, sessions) == [(SECOND,)]
        since = len(rig.slack.calls)
        await rig.says("/bakiye", "", "artık kurulu değil")
        assert all(call.team != rig.slack.team_id for call in rig.slack.calls[since:])
        assert all(call.token != old_token for call in rig.slack.calls[since:])
        await two.says("/bakiye", "", "Bakiyeniz")
        assert (await rig.http.get(f"{rig.base_url}/health")).status_code == 200


async def test_no_bot_token_or_client_secret_reaches_the_debug_log(tmp_path: Path) -> None:
    logged = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    levels = {name: logging.getLogger(name).level for name in ("slack_sdk", "slack_bolt")}
    try:
        async with slack_rig(tmp_path, many=True, allowed_slack_teams="T1") as rig:
            # The libraries at DEBUG too: slack_sdk's own lines are what could carry a token.
            configure_logging("DEBUG", [CLIENT_SECRET, SECRET], logged, library_level="DEBUG")
            await rig.install("T1")
            await rig.install("T9")
            await rig.log_in()
            tokens = [c.response["access_token"] for c in rig.slack.calls_to("oauth.v2.access")]
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)

    text_logged = logged.getvalue()
    assert "Sending a request - url: POST " in text_logged
    assert "oauth.v2.access" in text_logged
    assert "apps.uninstall" in text_logged
    assert "Received the following response" in text_logged
    assert len(tokens) == 2
    for secret in [*tokens, CLIENT_SECRET]:
        assert secret not in text_logged


async def test_a_redirect_uri_of_its_own_is_in_the_link_and_the_code_exchange(
    tmp_path: Path,
) -> None:
    redirect = "https://bot.example.org/slack/oauth_redirect"
    async with slack_rig(tmp_path, many=True, slack_redirect_uri=redirect) as rig:
        link, _ = await rig.install_page()
        installed = await rig.install("T1")

        assert f"redirect_uri={redirect}" in link
        assert installed.status_code == 200
        [exchange] = rig.slack.calls_to("oauth.v2.access")
        assert exchange.params["redirect_uri"] == redirect
        assert exchange.response["ok"]


@asynccontextmanager
async def _replicas(tmp_path: Path, database_url: str) -> AsyncIterator[tuple[SlackRig, SlackRig]]:
    """Two processes' worth of the app on one PostgreSQL database, one fake Slack, one sandbox."""
    async with slack_rig(
        tmp_path, many=True, speed=1.0, database_url=database_url, delivery_lease_seconds=1
    ) as first:
        settings = first.settings.model_copy(update={"port": free_port()})
        second = SlackRig(first.slack, first.sandbox, settings, first.http)
        await second.start()
        try:
            yield first, second
        finally:
            await second.stop()


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_an_install_started_on_one_replica_is_finished_on_another(
    tmp_path: Path, database_url: str
) -> None:
    async with _replicas(tmp_path, database_url) as (first, second):
        link, cookie = await first.install_page()
        grant = first.slack.authorize(link, "T1")
        finished = await second.http.get(
            f"{second.base_url}/slack/oauth_redirect",
            params={"code": grant.code, "state": grant.state},
            headers={"Cookie": cookie},
        )
        assert finished.status_code == 200, finished.text
        await first.says("/bakiye", "", "Önce giriş yapmalısınız")
        await second.log_in()


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_reinstall_on_one_replica_is_used_by_the_others_delivery(
    tmp_path: Path, database_url: str
) -> None:
    async with _replicas(tmp_path, database_url) as (first, second):
        await first.install("T1")
        await first.log_in()
        await _order(first)
        # The order's progress line is out before the reinstall, which is what this test is
        # about: the delivery, on the other replica, with the new token.
        await first.slack.wait_for(
            lambda: any("Hazırlanıyor" in text_of(m) for m in first.slack.messages(CHANNEL))
        )
        await second.install("T1")
        new = first.slack.token
        # The first replica stops; the second, which never served this order, delivers it.
        await first.stop()
        since = len(first.slack.calls)
        first.sandbox.state.clock.advance(600)
        # Not to wait out the service's estimate at the sandbox's real-time speed.
        _rows(second, "UPDATE job SET next_poll_at = now() RETURNING id")
        await _delivered(second, second.slack)
        assert {c.token for c in first.slack.calls[since:] if c.method != "oauth.v2.access"} == {
            new
        }


async def test_the_admin_chat_is_one_channel_of_one_workspace(tmp_path: Path) -> None:
    async with slack_rig(tmp_path, many=True, admin_chat="slack:T1/C1") as rig:
        await rig.install("T1")
        await rig.install(SECOND)
        two = rig.in_team(rig.slack.team(SECOND))

        await rig.says("/durum", "", "Sürüm:")
        await two.says("/durum", "", "Bu komutu tanımıyorum")


async def test_an_error_sent_to_the_redirect_cannot_forge_a_line_of_the_log(
    rig: SlackRig, logging_restored: None
) -> None:
    logged = io.StringIO()
    configure_logging("INFO", stream=logged)
    forged = "2026-01-01 00:00:00,000 ERROR bot.core: fake-line"
    page = await rig.http.get(
        f"{rig.base_url}/slack/oauth_redirect", params={"error": f"x\n{forged}\r\x1b[2K\x85"}
    )

    assert "Kurulum tamamlanamadı" in page.text
    [line] = [line for line in logged.getvalue().splitlines() if "fake-line" in line]
    assert line.endswith(f"ended without installing: x\\n{forged}\\r\\x1b[2K\\x85")
    assert not line.startswith(forged)


async def test_a_code_exchange_that_cannot_reach_slack_gets_the_failure_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The app's calls go to a port nothing answers: slack.com cannot be reached.
    unreachable = f"http://127.0.0.1:{free_port()}/api/"
    async with slack_rig(tmp_path, many=True, slack_api_url=unreachable) as rig:
        caplog.set_level(logging.INFO)
        link, cookie = await rig.install_page()
        grant = rig.slack.authorize(link, SECOND)
        page = await rig.http.get(
            f"{rig.base_url}/slack/oauth_redirect",
            params={"code": grant.code, "state": grant.state},
            headers={"Cookie": cookie},
        )
    assert page.status_code < 500, page.text
    assert "Kurulum tamamlanamadı" in page.text
    assert "/slack/install" in page.text, "the page offers to try again"
    assert _installations(rig) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Slack could not be reached" in caplog.text
