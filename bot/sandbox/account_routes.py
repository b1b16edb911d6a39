"""The caller's balance and topics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bot.sandbox.deps import CurrentAccount, JsonObject, SandboxDep
from bot.sandbox.errors import money
from bot.sandbox.payloads import parse_topic

__all__ = ["router"]

router = APIRouter(prefix="/api/v1")


@router.get("/profil/guncel-bakiye")
async def balance(account: CurrentAccount) -> dict[str, Any]:
    """The caller's current balance."""
    return {"success": True, "data": {"bakiye": money(account.balance), "paraBirimi": "TL"}}


@router.post("/konular/konu-ekle")
async def add_topic(body: JsonObject, state: SandboxDep, _: CurrentAccount) -> dict[str, Any]:
    """Remember a topic."""
    topic = parse_topic(body)
    return {"success": True, "data": {"id": state.add_topic(topic), "konu": topic}}
