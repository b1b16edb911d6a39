"""The process's Prometheus metrics, served at ``/metrics``.

Labels come only from small fixed sets (platform, operation, outcome): never a user id, an
e-mail or a title, which would leak user data and grow the series without bound.
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

__all__ = [
    "ARTICLES",
    "CHAT_MESSAGES",
    "CHAT_RATE_LIMITED",
    "CONTENT_TYPE",
    "LOGINS",
    "OLDEST_PENDING_JOB",
    "ORDERS",
    "PENDING_JOBS",
    "UNCERTAIN_ORDERS",
    "UPSTREAM_CALLS",
    "UPSTREAM_SECONDS",
    "exposition",
]

CONTENT_TYPE = CONTENT_TYPE_LATEST

ORDERS = Counter(
    "makale_orders", "Orders by stage: confirmed by the user, charged by the service", ["stage"]
)
UNCERTAIN_ORDERS = Counter(
    "makale_uncertain_orders",
    "Orders whose create call got no answer: unknown, then adopted or reported",
    ["outcome"],
)
ARTICLES = Counter(
    "makale_articles", "Articles by how they ended: delivered, failed, expired", ["outcome"]
)
CHAT_MESSAGES = Counter(
    "makale_chat_messages_sent", "Messages sent to a chat platform", ["platform"]
)
CHAT_RATE_LIMITED = Counter(
    "makale_chat_rate_limited", "429 answers received from a chat platform", ["platform"]
)
UPSTREAM_CALLS = Counter(
    "makale_upstream_calls", "Calls to the article service", ["operation", "outcome"]
)
UPSTREAM_SECONDS = Histogram(
    "makale_upstream_call_seconds", "Duration of calls to the article service", ["operation"]
)
PENDING_JOBS = Gauge("makale_pending_jobs", "Ordered articles not yet delivered or reported")
OLDEST_PENDING_JOB = Gauge(
    "makale_oldest_pending_job_age_seconds", "Age of the oldest article not yet delivered"
)
LOGINS = Counter("makale_logins_refused", "Logins refused: failed or throttled", ["outcome"])


def exposition() -> bytes:
    """Every metric in Prometheus' text format."""
    return generate_latest()
