"""Every way a call to the article service can fail.

One exception tree, so callers catch what they can act on and nothing of
``httpx`` leaks past ``bot/api``::

    ArticleApiError
    ├── ServiceUnavailable      [U]    network error, timeout or 5xx: try again later
    │   └── OutcomeUnknown      [U C]  a paid call may have gone through: reconcile, never re-send
    ├── RateLimited                    429: wait ``retry_after`` seconds
    ├── UnexpectedResponse      [C]    a body that cannot be read as the operation's answer
    └── RequestRejected                a 4xx the service explains
        ├── LoginRejected              wrong e-mail or password (401, or 400 "Invalid credentials")
        ├── LoginInvalid               e-mail format or empty fields at login (400)
        ├── TokenRejected              401 on a protected call, or a refused refresh token
        ├── ValidationFailed           400 on a call with a payload, with ``details``
        ├── InsufficientBalance        403 INSUFFICIENT_BALANCE, with required and current amounts
        ├── PermissionDenied           any other 403
        └── OperationMissing           404 or 405: the service has no such operation

The marks are facts kept on the classes, so callers ask the exception and no list of class
names can fall behind a rename:

- [U] ``unreachable``: the service was not reached; it counts towards "the service is down".
- [C] ``may_have_charged``: a paid call that failed so may still have been charged; the
  order is reconciled against the own-articles list.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

__all__ = [
    "ArticleApiError",
    "InsufficientBalance",
    "LoginInvalid",
    "LoginRejected",
    "OperationMissing",
    "OutcomeUnknown",
    "PermissionDenied",
    "RateLimited",
    "RequestRejected",
    "ServiceUnavailable",
    "TokenRejected",
    "UnexpectedResponse",
    "ValidationFailed",
]


class ArticleApiError(Exception):
    """Base of every failure of a call to the article service."""

    unreachable: ClassVar[bool] = False
    may_have_charged: ClassVar[bool] = False

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


# Transient: the same call may succeed later.


class ServiceUnavailable(ArticleApiError):
    """The service could not be reached, timed out, or answered 5xx."""

    unreachable = True


class OutcomeUnknown(ServiceUnavailable):
    """A paid call was sent but no answer came back: it may have been charged.

    For example a read timeout on the create call. The order is reconciled
    against the own-articles list; it is never re-sent automatically.
    """

    may_have_charged = True


class RateLimited(ArticleApiError):
    """The service answered 429; ``retry_after`` is its hint in seconds, if any."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message, status=429)
        self.retry_after = retry_after


class UnexpectedResponse(ArticleApiError):
    """A body that is not JSON, or lacks what the operation must return."""

    may_have_charged = True


# Rejections: the same call will fail again.


class RequestRejected(ArticleApiError):
    """A 4xx answer; ``error`` and ``reason`` are the service's own words, as it gave them."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        error: str | None = None,
        details: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message, status=status)
        self.error = error
        self.details = details or {}
        self.reason = reason


class LoginRejected(RequestRejected):
    """Wrong e-mail or password."""


class LoginInvalid(RequestRejected):
    """The login payload was refused: bad e-mail format, or an empty field."""


class TokenRejected(RequestRejected):
    """The access token (or, on refresh, the refresh token) is missing, invalid or expired."""


class ValidationFailed(RequestRejected):
    """A payload field was refused; ``details`` names it (field, minLength, currentLength)."""


class InsufficientBalance(RequestRejected):
    """The balance is lower than the cost of the order."""

    def __init__(
        self,
        message: str,
        *,
        required: Decimal | None = None,
        current: Decimal | None = None,
    ) -> None:
        super().__init__(message, status=403, error="InsufficientBalance")
        self.required = required
        self.current = current


class PermissionDenied(RequestRejected):
    """A 403 other than insufficient balance."""


class OperationMissing(RequestRejected):
    """404 or 405: the service does not offer this operation at this path."""
