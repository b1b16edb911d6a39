"""Login and token refresh."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bot.sandbox.deps import JsonObject, SandboxDep
from bot.sandbox.errors import ApiError
from bot.sandbox.payloads import parse_credentials, parse_refresh_token
from bot.sandbox.tokens import TokenPair

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/auth")


@router.post("/login")
async def login(body: JsonObject, state: SandboxDep) -> dict[str, Any]:
    """A token pair for valid credentials."""
    email, password = parse_credentials(body)
    account = state.authenticate(email, password)
    if account is None:
        # The interface documents both answers; the fault switch picks one.
        if state.faults.wrong_password_status == 400:
            raise ApiError(400, "Invalid credentials", "E-posta veya şifre hatalı.")
        raise ApiError(401, "Authentication Failed", "E-posta veya şifre hatalı.")
    return _token_body(state.tokens.issue(account.email))


@router.post("/refresh")
async def refresh(body: JsonObject, state: SandboxDep) -> dict[str, Any]:
    """A new token pair for a live refresh token, which is used up."""
    pair = state.tokens.rotate(parse_refresh_token(body))
    if pair is None:
        raise ApiError(401, "Unauthorized", "Yenileme anahtarı geçersiz veya süresi dolmuş.")
    return _token_body(pair)


def _token_body(pair: TokenPair) -> dict[str, Any]:
    return {
        "accessToken": pair.access_token,
        "accessTokenExpire": pair.access_expires,
        "refreshToken": pair.refresh_token,
    }
