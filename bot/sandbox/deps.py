"""FastAPI dependencies: the sandbox behind a request, its caller, its JSON body."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, Depends, Header, Request

from bot.sandbox.accounts import Account
from bot.sandbox.errors import ApiError
from bot.sandbox.state import SandboxState

__all__ = ["CurrentAccount", "JsonObject", "SandboxDep", "current_account", "sandbox_state"]


def sandbox_state(request: Request) -> SandboxState:
    """The state of the sandbox app serving this request."""
    state: SandboxState = request.app.state.sandbox
    return state


SandboxDep = Annotated[SandboxState, Depends(sandbox_state)]
JsonObject = Annotated[dict[str, Any], Body()]


def current_account(
    state: SandboxDep, authorization: Annotated[str | None, Header()] = None
) -> Account:
    """The account of the request's Bearer token; 401 when it is missing, forged or expired."""
    scheme, _, token = (authorization or "").partition(" ")
    email = state.tokens.subject_of(token.strip()) if scheme.lower() == "bearer" else None
    account = state.account(email) if email else None
    if account is None:
        raise ApiError(401, "Unauthorized", "Geçerli bir erişim anahtarı gerekli.")
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]
