"""Drafts: open orders, and the once-only move to submitted that pays for one."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from sqlmodel import Session

from storage import (
    ChatUser,
    Database,
    Draft,
    DraftKind,
    DraftStep,
    Job,
    drafts,
    jobs,
    users,
)

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _user_id(chat_user: ChatUser) -> int:
    assert chat_user.id is not None
    return chat_user.id


def _new(database: Database, user_id: int, *, step: DraftStep = DraftStep.TITLE) -> Draft:
    def create(session: Session) -> Draft:
        draft = drafts.create_draft(
            session, user_id=user_id, chat_id="chat-1", thread_id=None, kind=DraftKind.SINGLE
        )
        draft.step = step
        draft.title = "Yapay Zekâ ve Eğitim"
        return draft

    return database.run_sync(create)


def _get(database: Database, draft_id: str) -> Draft:
    draft = database.run_sync(lambda session: drafts.get_draft(session, draft_id=draft_id))
    assert draft is not None
    return draft


def _claim(database: Database, draft_id: str, user_id: int) -> Draft | None:
    return database.run_sync(
        lambda session: drafts.claim_for_submission(
            session, draft_id=draft_id, user_id=user_id, now=NOW
        )
    )


def test_a_new_draft_has_a_short_id_and_waits_for_its_title(
    database: Database, chat_user: ChatUser
) -> None:
    draft = database.run_sync(
        lambda session: drafts.create_draft(
            session,
            user_id=_user_id(chat_user),
            chat_id="C1",
            thread_id="171.2",
            kind=DraftKind.BULK,
        )
    )
    assert len(draft.id) == 8
    stored = _get(database, draft.id)
    assert (stored.step, stored.kind, stored.thread_id) == (
        DraftStep.TITLE,
        DraftKind.BULK,
        "171.2",
    )


def test_open_draft_is_the_newest_unsubmitted_one(database: Database, chat_user: ChatUser) -> None:
    user_id = _user_id(chat_user)
    _new(database, user_id, step=DraftStep.TONE)
    newest = _new(database, user_id, step=DraftStep.SIZE)
    _claimed = _new(database, user_id, step=DraftStep.READY)
    assert _claim(database, _claimed.id, user_id) is not None

    found = database.run_sync(lambda session: drafts.open_draft(session, user_id=user_id))
    assert found is not None
    assert found.id == newest.id


def test_save_draft_stores_changes(database: Database, chat_user: ChatUser) -> None:
    draft = _new(database, _user_id(chat_user))
    draft.step, draft.tone, draft.titles = DraftStep.TONE, 3, ["Bir", "İki"]
    database.run_sync(lambda session: drafts.save_draft(session, draft=draft))
    stored = _get(database, draft.id)
    assert (stored.step, stored.tone, stored.titles) == (DraftStep.TONE, 3, ["Bir", "İki"])


def test_a_stale_copy_cannot_reopen_a_submitted_draft(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    stale = _new(database, user_id, step=DraftStep.READY)
    assert _claim(database, stale.id, user_id) is not None

    stale.size = 2
    assert database.run_sync(lambda session: drafts.save_draft(session, draft=stale)) is None
    assert _get(database, stale.id).step is DraftStep.SUBMITTED


def test_claim_from_many_threads_succeeds_exactly_once(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    draft = _new(database, user_id, step=DraftStep.READY)
    racers = 6
    start = threading.Barrier(racers, timeout=10)

    def claim(_: int) -> Draft | None:
        start.wait()
        return _claim(database, draft.id, user_id)

    with ThreadPoolExecutor(racers) as pool:
        results = list(pool.map(claim, range(racers)))

    won = [result for result in results if result is not None]
    assert len(won) == 1
    assert won[0].step is DraftStep.SUBMITTED
    assert won[0].submitted_at == NOW


def test_only_the_owner_can_claim_and_only_when_ready(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    other = database.run_sync(
        lambda session: users.get_or_create_user(
            session, platform="telegram", workspace="", external_id="2002"
        )
    )
    assert other.id is not None
    not_ready = _new(database, user_id, step=DraftStep.SIZE)
    ready = _new(database, user_id, step=DraftStep.READY)

    assert _claim(database, ready.id, other.id) is None
    assert _claim(database, not_ready.id, user_id) is None
    assert _claim(database, "missing", user_id) is None
    assert _get(database, ready.id).step is DraftStep.READY


def test_a_released_submission_can_be_claimed_again(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    draft = _new(database, user_id, step=DraftStep.READY)
    assert _claim(database, draft.id, user_id) is not None

    database.run_sync(lambda session: drafts.release_submission(session, draft_id=draft.id))

    released = _get(database, draft.id)
    assert (released.step, released.submitted_at) == (DraftStep.READY, None)
    assert _claim(database, draft.id, user_id) is not None


def test_cancel_and_close(database: Database, chat_user: ChatUser) -> None:
    user_id = _user_id(chat_user)
    first = _new(database, user_id, step=DraftStep.TITLE)
    second = _new(database, user_id, step=DraftStep.READY)
    submitted = _new(database, user_id, step=DraftStep.READY)
    assert _claim(database, submitted.id, user_id) is not None

    cancelled = database.run_sync(
        lambda session: drafts.cancel_open_drafts(session, user_id=user_id)
    )
    database.run_sync(
        lambda session: drafts.close_draft(session, draft_id=submitted.id, step=DraftStep.DONE)
    )

    assert cancelled == 2
    assert _get(database, first.id).step is DraftStep.CANCELLED
    assert _get(database, second.id).step is DraftStep.CANCELLED
    assert _get(database, submitted.id).step is DraftStep.DONE
    with pytest.raises(ValueError, match="does not close"):
        database.run_sync(
            lambda session: drafts.close_draft(session, draft_id=first.id, step=DraftStep.READY)
        )


def _submitted(database: Database, user_id: int, *titles: str) -> Draft:
    """A submitted draft of the titles: bulk when several."""

    def confirm(session: Session) -> Draft:
        kind = DraftKind.BULK if len(titles) > 1 else DraftKind.SINGLE
        draft = drafts.create_draft(
            session, user_id=user_id, chat_id="chat-1", thread_id=None, kind=kind
        )
        draft.step = DraftStep.READY
        draft.title, draft.titles = (titles[0], None) if len(titles) == 1 else (None, list(titles))
        drafts.save_draft(session, draft=draft)
        claimed = drafts.claim_for_submission(session, draft_id=draft.id, user_id=user_id, now=NOW)
        assert claimed is not None
        return claimed

    return database.run_sync(confirm)


def _record_job(database: Database, user_id: int, draft: Draft, request_id: str) -> None:
    job = Job(
        request_id=request_id,
        chat_user_id=user_id,
        draft_id=draft.id,
        platform="telegram",
        chat_id="chat-1",
        title="t",
        tone=1,
        size=1,
    )
    database.run_sync(lambda session: jobs.add_job(session, job=job))


def test_unsettled_drafts_are_submitted_ones_with_titles_still_without_a_job(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    orphan = _submitted(database, user_id, "Tek başlık")
    adopted = _submitted(database, user_id, "Tek başlık")
    partly = _submitted(database, user_id, "Bir", "İki", "Üç")
    complete = _submitted(database, user_id, "Bir", "İki")
    _new(database, user_id, step=DraftStep.READY)
    _record_job(database, user_id, adopted, "req-1")
    for number, draft in enumerate((partly, partly, complete, complete), 2):
        _record_job(database, user_id, draft, f"req-{number}")

    found = database.run_sync(drafts.unsettled_drafts)

    assert sorted(draft.id for draft in found) == sorted([orphan.id, partly.id])
    assert drafts.draft_titles(partly) == ["Bir", "İki", "Üç"]
    assert drafts.draft_titles(orphan) == ["Tek başlık"]


def test_a_refused_title_is_left_out_of_its_submitted_draft_with_its_choices(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    draft = _submitted(database, user_id, "Bir", "İki", "Üç")

    def with_choices(session: Session) -> None:
        stored = session.get(Draft, draft.id)
        assert stored is not None
        stored.title_choices = [[1, None], [2, 3], [None, 4]]
        session.add(stored)

    database.run_sync(with_choices)
    database.run_sync(lambda s: drafts.drop_title(s, draft_id=draft.id, title="İki"))

    left = _get(database, draft.id)
    assert drafts.draft_titles(left) == ["Bir", "Üç"]
    assert left.title_choices == [[1, None], [None, 4]]
    assert database.run_sync(drafts.unsettled_drafts)[0].id == draft.id
    _record_job(database, user_id, left, "req-1")
    _record_job(database, user_id, left, "req-2")
    assert database.run_sync(drafts.unsettled_drafts) == [], "no job is looked for the refused"
