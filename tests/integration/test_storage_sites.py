"""Clients' sites: kept encrypted, replaced, forgotten, re-encrypted by rotate-keys; and the
claim that lets one press at a time write an article's post."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from sqlalchemy import text, update
from sqlmodel import col, select

from bot.core.clients.picker import MOST_CLIENTS, name_key
from storage import (
    ChatUser,
    Database,
    TokenCipher,
    clients,
    deliveries,
    generate_key,
    jobs,
    sites,
    users,
)
from storage.database import _alembic_config
from storage.models import DeliveryRecord, Job

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
PASSWORD = "abcd EFGH ijkl MNOP qrst UVWX"
LEASE = timedelta(minutes=5)


def _client(database: Database, user_id: int, name: str = "Acme Blog") -> int:
    client = database.run_sync(
        lambda s: clients.add_client(
            s, user_id=user_id, name=name, name_key=name_key(name), now=NOW, most=MOST_CLIENTS
        )
    )
    assert isinstance(client, clients.Client)
    assert client.id is not None
    return client.id


def _save(database: Database, cipher: TokenCipher, client_id: int, url: str) -> None:
    database.run_sync(
        lambda s: sites.save_site(
            s,
            cipher=cipher,
            client_id=client_id,
            url=url,
            username="editor",
            app_password=PASSWORD,
            name="Örnek Blog",
            now=NOW,
        )
    )


def test_a_site_is_kept_encrypted_replaced_and_forgotten(
    database: Database, chat_user: ChatUser, cipher: TokenCipher
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _client(database, user_id)
    _save(database, cipher, client_id, "https://eski.example.com")
    _save(database, cipher, client_id, "https://ornek.com")

    found = database.run_sync(
        lambda s: sites.site_of_client(s, cipher=cipher, user_id=user_id, client_id=client_id)
    )
    assert found == sites.StoredSite(
        client_id, "https://ornek.com", "editor", "Örnek Blog", PASSWORD
    )
    assert database.run_sync(lambda s: sites.sites_of_user(s, user_id=user_id)) == {
        client_id: ("Örnek Blog", "https://ornek.com")
    }
    assert (
        database.run_sync(lambda s: sites.forget_site(s, user_id=user_id + 1, client_id=client_id))
        is False
    )
    assert database.run_sync(lambda s: sites.forget_site(s, user_id=user_id, client_id=client_id))
    assert database.run_sync(lambda s: sites.sites_of_user(s, user_id=user_id)) == {}


def test_rotate_keys_reencrypts_site_passwords(database: Database, chat_user: ChatUser) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _client(database, user_id)
    old_key, new_key = generate_key(), generate_key()
    _save(database, TokenCipher(old_key), client_id, "https://ornek.com")
    both = TokenCipher([new_key, old_key])

    assert database.run_sync(lambda s: sites.reencrypt_all(s, cipher=both)) == 1

    only_new = TokenCipher(new_key)
    found = database.run_sync(
        lambda s: sites.site_of_client(s, cipher=only_new, user_id=user_id, client_id=client_id)
    )
    assert found is not None
    assert found.app_password == PASSWORD


def _job(database: Database, user_id: int, client_id: int, request_id: str = "req-1") -> int:
    row = Job(
        request_id=request_id,
        chat_user_id=user_id,
        platform="telegram",
        chat_id="1",
        title="Yapay zekâ ile içerik üretimi",
        tone=1,
        size=1,
        client_id=client_id,
        content="# Başlık\n\nMetin.",
    )
    job = database.run_sync(lambda s: jobs.add_job(s, job=row))
    assert job.id is not None
    return job.id


def test_one_writer_at_a_time_leases_a_sites_record_and_the_next_finds_its_post(
    database: Database, chat_user: ChatUser, cipher: TokenCipher
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _client(database, user_id)
    _save(database, cipher, client_id, "https://ornek.com")
    job_id = _job(database, user_id, client_id)
    until = NOW + timedelta(minutes=5)

    def claim(at: datetime, owner: str) -> DeliveryRecord | None:
        return database.run_sync(
            lambda s: deliveries.claim_one(
                s,
                job_id=job_id,
                kind=sites.SITE,
                target=str(client_id),
                owner=owner,
                now=at,
                until=at + timedelta(minutes=5),
            )
        )

    def settle(record_id: int, owner: str) -> bool:
        return database.run_sync(
            lambda s: deliveries.settle(
                s,
                record_id=record_id,
                owner=owner,
                progress="41",
                done=True,
                failures=0,
                next_try_at=None,
            )
        )

    assert database.run_sync(
        lambda s: sites.with_site(s, user_id=user_id, request_ids=["req-1", "req-2"])
    ) == {"req-1"}
    first = claim(NOW, "a")
    assert first is not None
    assert first.id is not None
    assert first.progress is None
    assert claim(NOW + timedelta(minutes=1), "b") is None, "held by the first writer"
    assert claim(until, "b") is not None, "a lease past its time is taken over"
    assert not settle(first.id, "a"), "fenced: the first writer lost its lease"
    assert settle(first.id, "b")
    third = claim(until, "c")
    assert third is not None
    assert third.progress == "41"
    assert third.done
    database.run_sync(lambda s: deliveries.release(s, record_id=first.id or 0, owner="c"))
    fourth = claim(until, "d")
    assert fourth is not None
    assert fourth.progress == "41"


def test_migrating_moves_each_articles_site_post_into_its_delivery_record(
    database_url: str,
) -> None:
    database = Database.connect(database_url)
    try:
        _migrate_to(database, "0017")
        user = database.run_sync(
            lambda s: users.get_or_create_user(
                s, platform="telegram", workspace="", external_id="7"
            )
        )
        assert user.id is not None
        client_id = _client(database, user.id)
        posted = _job(database, user.id, client_id)
        failing = _job(database, user.id, client_id, "req-2")
        # Job's site columns as they were before the move: the model no longer has them.
        _set_site_fields(database, posted, post_id=41, failures=0)
        _set_site_fields(database, failing, post_id=None, failures=2)

        database.migrate()

        records = database.run_sync(
            lambda s: list(s.exec(select(DeliveryRecord).order_by(col(DeliveryRecord.job_id))))
        )
        found = [(r.job_id, r.kind, r.target, r.progress, r.done, r.failures) for r in records]
        assert found == [
            (posted, sites.SITE, str(client_id), "41", True, 0),
            (failing, sites.SITE, str(client_id), None, False, 2),
        ]
    finally:
        database.dispose()


def _migrate_to(database: Database, revision: str) -> None:
    with database.migration_connection() as connection:
        config = _alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def _set_site_fields(
    database: Database, job_id: int, *, post_id: int | None, failures: int
) -> None:
    statement = text(
        "UPDATE job SET site_post_id = :post, site_failures = :failures WHERE id = :id"
    )
    database.run_sync(
        lambda s: s.connection().execute(
            statement, {"post": post_id, "failures": failures, "id": job_id}
        )
    )


def test_a_due_record_is_leased_by_one_owner_until_its_lease_runs_out(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _client(database, user_id)
    job_id = _job(database, user_id, client_id)
    due = DeliveryRecord(job_id=job_id, kind=sites.SITE, target=str(client_id), next_try_at=NOW)
    database.run_sync(lambda s: s.add(due))
    until = NOW + LEASE

    def claim(at: datetime, owner: str) -> list[int]:
        claimed = database.run_sync(
            lambda s: deliveries.claim_due(
                s, kinds=[sites.SITE], owner=owner, now=at, until=at + LEASE, limit=10
            )
        )
        return [job.id or 0 for _, job in claimed]

    assert claim(NOW - timedelta(seconds=1), "a") == [], "not due yet"
    assert claim(NOW, "a") == [job_id]
    assert claim(NOW + timedelta(minutes=1), "b") == [], "leased by a"
    assert claim(until, "b") == [job_id], "a's lease ran out"
    assert claim(until + timedelta(minutes=1), "c") == [], "leased by b"


def test_handing_leases_back_frees_only_the_records_the_owner_still_holds(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _client(database, user_id)
    ids = [_job(database, user_id, client_id, f"req-{n}") for n in range(2)]
    for job_id in ids:
        due = DeliveryRecord(job_id=job_id, kind=sites.SITE, target=str(client_id), next_try_at=NOW)
        database.run_sync(lambda s, due=due: s.add(due))
    claimed = database.run_sync(
        lambda s: deliveries.claim_due(
            s, kinds=[sites.SITE], owner="a", now=NOW, until=NOW + LEASE, limit=10
        )
    )
    record_ids = [record.id or 0 for record, _ in claimed]
    # The second record's lease ran out and another took it meanwhile.
    database.run_sync(
        lambda s: s.exec(
            update(DeliveryRecord)
            .where(col(DeliveryRecord.id) == record_ids[1])
            .values(lease_owner="b")
        )
    )

    database.run_sync(lambda s: deliveries.release_all(s, record_ids=record_ids, owner="a"))

    owners = database.run_sync(
        lambda s: list(s.exec(select(DeliveryRecord.lease_owner).order_by(col(DeliveryRecord.id))))
    )
    assert owners == [None, "b"]
    free = database.run_sync(
        lambda s: deliveries.claim_due(
            s, kinds=[sites.SITE], owner="c", now=NOW, until=NOW + LEASE, limit=10
        )
    )
    assert [record.id for record, _ in free] == record_ids[:1], "taken at once, not at its end"
