"""The lists of writing tones and article sizes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from bot.sandbox.catalog import SIZES, TONES
from bot.sandbox.deps import current_account

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/makaleler", dependencies=[Depends(current_account)])


@router.get("/yazim-tonlari")
async def tones() -> dict[str, Any]:
    """The writing tones."""
    data = [{"id": tone.id, "ad": tone.name, "aciklama": tone.description} for tone in TONES]
    return {"success": True, "data": data}


# Clients send the ı percent-encoded; the route matches the decoded path.
@router.get("/makale-boyutları")
async def sizes() -> dict[str, Any]:
    """The article sizes with their lengths and prices."""
    data = [
        {
            "id": size.id,
            "ad": size.name,
            "kelimeSayisi": size.word_range,
            "okumaSuresi": size.reading_time,
            "ucret": size.cost,
        }
        for size in SIZES
    ]
    return {"success": True, "data": data}
