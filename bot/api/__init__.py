"""The article service's typed async client, its models and its error tree."""

from bot.api.client import DEFAULT_BULK_PATH, NEWEST_ARTICLES, ArticleApi
from bot.api.errors import (
    ArticleApiError,
    InsufficientBalance,
    LoginInvalid,
    LoginRejected,
    OperationMissing,
    OutcomeUnknown,
    PermissionDenied,
    RateLimited,
    RequestRejected,
    ServiceUnavailable,
    TokenRejected,
    UnexpectedResponse,
    ValidationFailed,
)
from bot.api.models import (
    DEFAULT_SIZES,
    DEFAULT_TONES,
    Article,
    ArticleStatus,
    CreatedJob,
    Size,
    TokenPair,
    Tone,
    Topic,
)
from bot.api.parsing import printable

__all__ = [
    "DEFAULT_BULK_PATH",
    "DEFAULT_SIZES",
    "DEFAULT_TONES",
    "NEWEST_ARTICLES",
    "Article",
    "ArticleApi",
    "ArticleApiError",
    "ArticleStatus",
    "CreatedJob",
    "InsufficientBalance",
    "LoginInvalid",
    "LoginRejected",
    "OperationMissing",
    "OutcomeUnknown",
    "PermissionDenied",
    "RateLimited",
    "RequestRejected",
    "ServiceUnavailable",
    "Size",
    "TokenPair",
    "TokenRejected",
    "Tone",
    "Topic",
    "UnexpectedResponse",
    "ValidationFailed",
    "printable",
]
