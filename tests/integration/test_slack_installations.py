"""Slack installations and install states, through slack_sdk's store interfaces, on our tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from slack_sdk.oauth.installation_store import Installation
from sqlalchemy import text
from sqlmodel import select

from bot.slack.install_states import SignedStates
from bot.slack.installations import DbInstallationStore
from storage import (
    Database,
    Job,
    JobStatus,
    SlackInstallations,
    TokenCipher,
    Tokens,
    generate_key,
    jobs,
    slack_installations,
    upstream_sessions,
    users,
)

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
CLIENT_SECRET = "f4k3c113n7s3cr3700000000deadbeef"
OLD_TOKEN = "xoxb-111-old-bot-token-of-team-one"
NEW_TOKEN = "xoxb-111-new-bot-token-of-team-one"


class _Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def _installation(team: str, token: str, enterprise: str | None = None) -> Installation:
    return Installation(
        app_id="A1",
        enterprise_id=enterprise,
        team_id=team,
        bot_token=token,
        bot_id="B1",
        bot_user_id="UBOT",
        bot_scopes="chat:write,commands",
        user_id="UADMIN",
    )


def _stores(
    database: Database, cipher: TokenCipher, clock: _Clock
) -> tuple[SlackInstallations, DbInstallationStore, SignedStates]:
    rows = SlackInstallations(database, cipher, clock)
    return rows, DbInstallationStore(rows), SignedStates(CLIENT_SECRET, rows, clock=clock)


def _raw_bytes(database: Database) -> bytes:
    rows = database.run_sync(
        lambda s: s.execute(text("SELECT * FROM slack_installation")).all()  # type: ignore[deprecated]
    )
    return repr(rows).encode()


async def test_a_reinstall_replaces_the_token_which_is_never_stored_as_text(
    database: Database, cipher: TokenCipher
) -> None:
    _, store, _ = _stores(database, cipher, _Clock())
    await store.async_save(_installation("T1", OLD_TOKEN))
    await store.async_save(_installation("T2", "xoxb-222-bot-token-of-team-two"))
    await store.async_save(_installation("T1", NEW_TOKEN))

    bot = await store.async_find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None
    assert (bot.bot_token, bot.bot_user_id, bot.bot_scopes) == (
        NEW_TOKEN,
        "UBOT",
        ["chat:write", "commands"],
    )
    other = await store.async_find_installation(enterprise_id=None, team_id="T2")
    assert other is not None
    assert other.bot_token == "xoxb-222-bot-token-of-team-two"
    assert await store.async_find_bot(enterprise_id=None, team_id="T3") is None
    raw = _raw_bytes(database)
    assert b"T1" in raw
    assert b"xoxb" not in raw


async def test_installations_are_keyed_by_enterprise_and_team(
    database: Database, cipher: TokenCipher
) -> None:
    rows, store, _ = _stores(database, cipher, _Clock())
    await store.async_save(_installation("T1", OLD_TOKEN, enterprise="E1"))

    found = await store.async_find_bot(enterprise_id="E1", team_id="T1")
    assert found is not None
    assert found.enterprise_id == "E1"
    assert await store.async_find_bot(enterprise_id="E2", team_id="T1") is None
    # Events of a workspace in a grid name the team; the team alone finds it, and removes it.
    assert await store.async_find_bot(enterprise_id=None, team_id="T1") is not None
    assert (await rows.remove("E2", "T1")).installations == 0
    assert (await rows.remove(None, "T1")).installations == 1


async def test_a_state_is_signed_not_stored_and_spent_once_on_any_replica_before_it_expires(
    database_url: str, database: Database, cipher: TokenCipher
) -> None:
    clock = _Clock()
    _, _, here = _stores(database, cipher, clock)
    other_replica = Database.connect(database_url)

    def spent() -> int:
        sql = "SELECT count(*) FROM slack_oauth_state"
        return int(database.run_sync(lambda s: s.connection().exec_driver_sql(sql).scalar_one()))

    try:
        _, _, there = _stores(other_replica, cipher, clock)
        state = await here.async_issue()
        assert spent() == 0
        assert await there.async_consume(state)
        assert await there.async_consume(state), "good until an install with it is stored"
        assert await there.spend(state)
        assert not await here.async_consume(state)
        assert not await here.spend(state)
        stranger = SignedStates(
            "another-apps-client-secret", SlackInstallations(database, cipher, clock)
        )
        for bad in ["never-issued", "", "ş.ş.ş", await stranger.async_issue()]:
            assert not await there.async_consume(bad)
        late = await here.async_issue()
        clock.now += timedelta(minutes=11)
        assert not await there.async_consume(late)
        assert not await there.spend(late)
        assert spent() == 1
        # Spending drops what expired: a spent state is refused for its age by then.
        assert await here.spend(await here.async_issue())
        assert spent() == 1
    finally:
        other_replica.dispose()


def _job(database: Database, user_id: int, request_id: str, status: JobStatus) -> None:
    job = Job(
        request_id=request_id,
        chat_user_id=user_id,
        platform="slack",
        chat_id="C1",
        title="Başlık",
        tone=1,
        size=1,
        status=status,
        lease_owner="replica-a",
        lease_until=NOW + timedelta(minutes=1),
    )
    database.run_sync(lambda s: jobs.add_job(s, job=job))


def _slack_user(database: Database, cipher: TokenCipher, team: str) -> int:
    user = database.run_sync(
        lambda s: users.get_or_create_user(s, platform="slack", workspace=team, external_id="U1")
    )
    assert user.id is not None
    tokens = Tokens("access", NOW + timedelta(hours=1), "refresh", NOW + timedelta(days=1))
    user_id = user.id
    database.run_sync(
        lambda s: upstream_sessions.save_session(
            s, cipher=cipher, user_id=user_id, upstream_url="https://x", tokens=tokens
        )
    )
    return user_id


async def test_removing_a_team_expires_its_open_jobs_and_ends_its_sessions_only(
    database: Database, cipher: TokenCipher
) -> None:
    rows, store, _ = _stores(database, cipher, _Clock())
    await store.async_save(_installation("T1", OLD_TOKEN))
    await store.async_save(_installation("T2", "xoxb-222-bot-token-of-team-two"))
    gone, kept = _slack_user(database, cipher, "T1"), _slack_user(database, cipher, "T2")
    _job(database, gone, "pending-1", JobStatus.PENDING)
    _job(database, gone, "finished-1", JobStatus.FINISHED)
    _job(database, gone, "delivered-1", JobStatus.DELIVERED)
    _job(database, kept, "pending-2", JobStatus.PENDING)

    removed = await rows.remove(None, "T1")
    again = await rows.remove(None, "T1")

    assert removed.installations == 1
    assert sorted(request for _, request in removed.expired_jobs) == ["finished-1", "pending-1"]
    assert removed.sessions == 1
    assert (again.installations, list(again.expired_jobs), again.sessions) == (0, [], 0)
    assert await store.async_find_bot(enterprise_id=None, team_id="T1") is None
    assert await store.async_find_bot(enterprise_id=None, team_id="T2") is not None

    found = database.run_sync(lambda s: s.exec(select(Job)).all())
    assert {job.request_id: (job.status, job.lease_owner) for job in found} == {
        "pending-1": (JobStatus.EXPIRED, None),
        "finished-1": (JobStatus.EXPIRED, None),
        "delivered-1": (JobStatus.DELIVERED, "replica-a"),
        "pending-2": (JobStatus.PENDING, "replica-a"),
    }
    for user_id, left in ((gone, None), (kept, "access")):
        stored = database.run_sync(
            lambda s, user_id=user_id: upstream_sessions.load_session(
                s, cipher=cipher, user_id=user_id, upstream_url="https://x"
            )
        )
        assert (stored.tokens.access_token if stored else None) == left


@pytest.mark.parametrize("broken", [False, True])
async def test_rotate_re_encrypts_bot_tokens_under_the_first_key(
    sqlite_database: Database, broken: bool
) -> None:
    old_key, new_key = generate_key(), generate_key()
    _, store, _ = _stores(sqlite_database, TokenCipher(old_key), _Clock())
    await store.async_save(_installation("T1", OLD_TOKEN))
    rotating = TokenCipher([new_key, old_key] if not broken else [new_key])

    moved = sqlite_database.run_sync(
        lambda s: slack_installations.reencrypt_all(s, cipher=rotating)
    )

    assert moved == (0 if broken else 1)
    _, after, _ = _stores(sqlite_database, TokenCipher(new_key), _Clock())
    bot = await after.async_find_bot(enterprise_id=None, team_id="T1")
    assert (bot.bot_token if bot else None) == (None if broken else OLD_TOKEN)
