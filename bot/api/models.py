"""What the article service answers, as the bot reads it."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

__all__ = [
    "DEFAULT_SIZES",
    "DEFAULT_TONES",
    "Article",
    "ArticleStatus",
    "CreatedJob",
    "Size",
    "TokenPair",
    "Tone",
    "Topic",
]


@dataclass(frozen=True, slots=True)
class TokenPair:
    """An access token, its expiry, and the refresh token that renews it."""

    access_token: str
    access_expires_at: datetime
    refresh_token: str

    def __repr__(self) -> str:
        return f"TokenPair(access_expires_at={self.access_expires_at.isoformat()}, tokens=***)"


@dataclass(frozen=True, slots=True)
class Tone:
    """A writing tone (ids 1-5)."""

    id: int
    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Size:
    """An article size (ids 1-4) with its word count and price."""

    id: int
    name: str
    words: str = ""
    cost: Decimal | None = None
    reading_time: str = ""


@dataclass(frozen=True, slots=True)
class CreatedJob:
    """The answer to a create call: a tracking id, a readable estimate and the cost."""

    request_id: str
    estimated_time: str = ""
    cost: Decimal | None = None
    message: str = ""


class ArticleStatus(enum.StrEnum):
    """A job's state, normalised from whatever words or ids the service uses."""

    PENDING = "pending"
    PROCESSING = "processing"
    FINISHED = "finished"
    FAILED = "failed"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Article:
    """One item of the own-articles list."""

    request_id: str
    status: ArticleStatus = ArticleStatus.UNKNOWN
    title: str | None = None
    progress: int | None = None
    content: str | None = None
    created_at: datetime | None = None
    failure_reason: str | None = None

    @property
    def finished(self) -> bool:
        """A job is done when it has content and no failure status."""
        return (
            bool(self.content and self.content.strip()) and self.status is not ArticleStatus.FAILED
        )

    @property
    def failed(self) -> bool:
        """The service says the job failed."""
        return self.status is ArticleStatus.FAILED


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic the service accepted; its fields are undocumented, so only an id is read."""

    id: str | None
    name: str


# The interface's fixed tables, named the Turkish way: shown when the service lists none.
DEFAULT_TONES: tuple[Tone, ...] = (
    Tone(1, "Profesyonel", "Resmi, teknik dil"),
    Tone(2, "Samimi", "Sıcak, yakın dil"),
    Tone(3, "Eğitici", "Öğretici, açıklayıcı"),
    Tone(4, "İkna Edici", "Satış odaklı, motive edici"),
    Tone(5, "Yaratıcı", "Sanatsal, özgün"),
)
DEFAULT_SIZES: tuple[Size, ...] = (
    Size(1, "Kısa", "300-500", Decimal(15), "2-3 dakika"),
    Size(2, "Orta", "800-1200", Decimal(25), "4-6 dakika"),
    Size(3, "Uzun", "1500-2000", Decimal(35), "7-10 dakika"),
    Size(4, "Çok Uzun", "2500+", Decimal(50), "12+ dakika"),
)
