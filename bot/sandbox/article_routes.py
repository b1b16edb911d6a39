"""Creating articles, one or in bulk, and listing the caller's own."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request

from bot.sandbox.deps import CurrentAccount, JsonObject, SandboxDep
from bot.sandbox.errors import ApiError
from bot.sandbox.jobs import Job, JobStatus
from bot.sandbox.payloads import parse_bulk, parse_list_query, parse_order
from bot.sandbox.state import SandboxState

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/makaleler")


def bulk_available(state: SandboxDep) -> None:
    """404, as for an unknown path, while the bulk fault switch is off."""
    if not state.faults.bulk_enabled:
        raise ApiError(404, "Not Found", "Böyle bir işlem yok.")


@router.post("/makale-olustur")
async def create(body: JsonObject, state: SandboxDep, account: CurrentAccount) -> dict[str, Any]:
    """Charge for one article and start writing it."""
    (job,) = state.create_jobs(account, [parse_order(body, refused=state.faults.refused_titles)])
    return {
        "success": True,
        "message": "Makale oluşturma isteği alındı",
        "data": _accepted(state, job),
    }


@router.post("/toplu-makale-olustur", dependencies=[Depends(bulk_available)])
async def create_bulk(
    body: JsonObject, state: SandboxDep, account: CurrentAccount
) -> dict[str, Any]:
    """Charge for several articles at once and start them all, or none."""
    jobs = state.create_jobs(account, parse_bulk(body, state.faults.refused_titles))
    return {
        "success": True,
        "message": f"{len(jobs)} makale oluşturma isteği alındı",
        "data": {
            "items": [_accepted(state, job) for job in jobs],
            "toplamUcret": sum(job.order.size.cost for job in jobs),
        },
    }


@router.get("/makalelerim")
async def own_articles(
    request: Request, state: SandboxDep, account: CurrentAccount
) -> dict[str, Any]:
    """The caller's articles, newest first, filtered and paged."""
    query = parse_list_query(request.query_params)
    now = state.clock.now()
    hidden = state.faults.hidden_article_fields
    items = [
        {key: value for key, value in _item(job, now).items() if key not in hidden}
        for job in state.jobs_of(account)
    ]
    matching = [
        item
        for item in items
        if query.request_id in (None, item["requestId"]) and query.status in (None, item["durumId"])
    ]
    start = (query.page - 1) * query.page_size
    page = matching[start : start + query.page_size]
    return {"success": True, "data": {"items": page, "toplam": len(matching)}}


def _accepted(state: SandboxState, job: Job) -> dict[str, Any]:
    return {
        "requestId": job.request_id,
        "estimatedTime": state.estimated_time(job.order.size),
        "cost": job.order.size.cost,
    }


def _item(job: Job, now: datetime) -> dict[str, Any]:
    progress = job.progress_at(now)
    created = job.created_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {
        "requestId": job.request_id,
        "baslik": job.order.title,
        "yazimTonu": job.order.tone.id,
        "makaleBoyutu": job.order.size.id,
        "durum": progress.status.word,
        "durumId": int(progress.status),
        "ilerleme": progress.percent,
        "icerik": job.content if progress.status is JobStatus.TAMAMLANDI else None,
        "createdAt": created,
        "hataMesaji": job.failure if progress.status is JobStatus.BASARISIZ else None,
    }
