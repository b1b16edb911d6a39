"""The service's error bodies, and the handlers that give every failure one."""

from __future__ import annotations

from decimal import Decimal
from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from bot.sandbox.accounts import BalanceTooLowError

__all__ = ["ApiError", "error_response", "install_error_handlers", "money"]


class ApiError(Exception):
    """A failure the service explains: status, short name, message and extra fields."""

    def __init__(self, status: int, error: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.extra = extra


def money(amount: Decimal) -> float:
    """An amount of TL as a JSON number."""
    return float(amount)


def error_response(status: int, error: str, message: str, **extra: object) -> JSONResponse:
    """An error body `{"error", "message", "statusCode", ...}` with its status."""
    body = {"error": error, "message": message, "statusCode": status, **extra}
    return JSONResponse(body, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    """Make every error of the app answer with the service's error body."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.error, exc.message, **exc.extra)

    @app.exception_handler(BalanceTooLowError)
    async def balance_too_low(_: Request, exc: BalanceTooLowError) -> JSONResponse:
        return error_response(
            403,
            "InsufficientBalance",
            "Bakiyeniz bu işlem için yetersiz.",
            code="INSUFFICIENT_BALANCE",
            requiredAmount=money(exc.required),
            currentBalance=money(exc.current),
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return error_response(exc.status_code, HTTPStatus(exc.status_code).phrase, str(exc.detail))

    # FastAPI answers a body that is not a JSON object with 422; the service says 400.
    @app.exception_handler(RequestValidationError)
    async def malformed_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(
            400, "Validation Error", "İstek gövdesi geçerli bir JSON nesnesi değil."
        )
