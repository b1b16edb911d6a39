"""Clients: one live client per folded name and user, defaults, and removal that keeps orders."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlmodel import Session

from bot.core.clients.picker import name_key
from storage import ChatUser, Database, clients, drafts, jobs
from storage.models import DraftKind

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def _add(
    database: Database, user_id: int, name: str, most: int = 20
) -> int | clients.ClientRefused:
    client = database.run_sync(
        lambda s: clients.add_client(
            s, user_id=user_id, name=name, name_key=name_key(name), now=NOW, most=most
        )
    )
    if isinstance(client, clients.ClientRefused):
        return client
    assert client.id is not None
    return client.id


def _live(database: Database, user_id: int) -> list[str]:
    listed = database.run_sync(lambda s: clients.clients_of_user(s, user_id=user_id))
    return [client.name for client in listed]


def test_a_name_is_unique_per_user_with_turkish_case_folding(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    first = _add(database, user_id, "İstanbul Kitap")
    assert isinstance(first, int)
    assert _add(database, user_id, "istanbul KİTAP") is clients.ClientRefused.TAKEN
    # "I" folds to "ı", not to "i": another name in Turkish.
    assert isinstance(_add(database, user_id, "Işık"), int)
    assert isinstance(_add(database, user_id, "isik"), int)
    assert sorted(_live(database, user_id)) == sorted(["isik", "Işık", "İstanbul Kitap"])


def test_a_user_has_at_most_so_many_live_clients_even_when_adding_at_once(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    names = [f"Müşteri {number}" for number in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        added = list(pool.map(lambda name: _add(database, user_id, name, most=3), names))

    assert added.count(clients.ClientRefused.FULL) == 5
    assert len(_live(database, user_id)) == 3
    first = next(client for client in added if isinstance(client, int))
    database.run_sync(lambda s: clients.remove_client(s, user_id=user_id, client_id=first, now=NOW))
    assert isinstance(_add(database, user_id, "Yeni müşteri", most=3), int)


def test_a_removed_client_frees_its_name_and_keeps_its_orders(
    database: Database, chat_user: ChatUser
) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    client_id = _add(database, user_id, "Acme")
    assert isinstance(client_id, int)

    def order(session: Session) -> int | None:
        draft = drafts.create_draft(
            session, user_id=user_id, chat_id="c", thread_id=None, kind=DraftKind.SINGLE
        )
        draft.client_id, draft.title, draft.tone, draft.size = client_id, "Bir başlık yazısı", 1, 2
        job = jobs.draft_job(
            draft,
            platform="telegram",
            request_id="r-1",
            title="Bir başlık yazısı",
            cost=None,
            next_poll_at=NOW,
            created_at=NOW,
        )
        return jobs.add_job(session, job=job).id

    job_id = database.run_sync(order)
    assert database.run_sync(
        lambda s: clients.set_defaults(s, user_id=user_id, client_id=client_id, tone=2, size=3)
    )
    assert database.run_sync(
        lambda s: clients.remove_client(s, user_id=user_id, client_id=client_id, now=NOW)
    )
    assert not database.run_sync(
        lambda s: clients.remove_client(s, user_id=user_id, client_id=client_id, now=NOW)
    )
    assert database.run_sync(lambda s: clients.clients_of_user(s, user_id=user_id)) == []
    job = database.run_sync(lambda s: jobs.get_job(s, job_id=job_id))
    assert job is not None
    assert job.client_id == client_id
    kept = database.run_sync(lambda s: clients.client_names(s, user_id=user_id))[client_id]
    assert (kept.name, kept.tone) == ("Acme", 2)
    assert kept.removed_at is not None
    again = _add(database, user_id, "ACME")
    assert isinstance(again, int)
    assert again != client_id
