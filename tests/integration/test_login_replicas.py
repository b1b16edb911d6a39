"""The login throttle across two processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session

from bot.api import ArticleApi, LoginRejected
from bot.core.accounts import Accounts
from bot.core.clock import system_clock
from bot.core.errors import LoginThrottled
from bot.sandbox import DEMO_EMAIL, running_sandbox
from storage import Database, TokenCipher, generate_key, users

ROOT = Path(__file__).resolve().parents[2]
LOGINS_EACH = 20

# The other replica: its own process, engine and client, the same database and key.
REPLICA = """
import asyncio, sys
import httpx
from bot.api import ArticleApi
from bot.core.accounts import Accounts
from bot.core.clock import system_clock
from storage import Database, TokenCipher

async def main(url, api_url, key, ids):
    db = Database.connect(url)
    async with httpx.AsyncClient(timeout=10) as http:
        api = ArticleApi(http, base_url=api_url, read_attempts=1)
        accounts = Accounts(db=db, api=api, cipher=TokenCipher(key), clock=system_clock)
        print("ready", flush=True)
        sys.stdin.readline()
        logins = (accounts.login(int(i), "demo@example.com", f"Wrong{i}") for i in ids)
        outcomes = await asyncio.gather(*logins, return_exceptions=True)
    db.dispose()
    print(" ".join(type(outcome).__name__ for outcome in outcomes), flush=True)

url, api_url, key, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
asyncio.run(main(url, api_url, key, ids))
"""


def login_calls(log: list[tuple[str, str]]) -> int:
    return sum(path.endswith("/auth/login") for _, path in log)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_forty_logins_through_two_processes_reach_the_service_ten_times(
    database_url: str,
) -> None:
    db = Database.connect(database_url)
    db.migrate()
    key = generate_key()

    def colleagues(session: Session) -> list[int]:
        made = [
            users.get_or_create_user(session, platform="slack", workspace="T1", external_id=f"U{n}")
            for n in range(2 * LOGINS_EACH)
        ]
        return [user.id for user in made if user.id is not None]

    ids = db.run_sync(colleagues)
    mine, theirs = ids[:LOGINS_EACH], ids[LOGINS_EACH:]
    try:
        async with running_sandbox() as sandbox, httpx.AsyncClient(timeout=10) as http:
            sandbox.state.faults.latency = 0.3
            replica = await asyncio.create_subprocess_exec(
                *(sys.executable, "-c", REPLICA, database_url, sandbox.url, key),
                ",".join(map(str, theirs)),
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            assert replica.stdin is not None
            assert replica.stdout is not None
            assert (await asyncio.wait_for(replica.stdout.readline(), 60)).strip() == b"ready"
            api = ArticleApi(http, base_url=sandbox.url, read_attempts=1)
            accounts = Accounts(db=db, api=api, cipher=TokenCipher(key), clock=system_clock)
            replica.stdin.write(b"go\n")
            await replica.stdin.drain()

            outcomes = await asyncio.gather(
                *(accounts.login(i, DEMO_EMAIL, f"Wrong{i}") for i in mine),
                return_exceptions=True,
            )
            theirs_ended = (await asyncio.wait_for(replica.stdout.readline(), 60)).split()
            await replica.wait()

            assert login_calls(sandbox.state.request_log) == 10
            ours = [type(outcome).__name__ for outcome in outcomes]
            ended = ours + [name.decode() for name in theirs_ended]
            assert ended.count(LoginThrottled.__name__) == 30
            assert ended.count(LoginRejected.__name__) == 10
    finally:
        db.dispose()
