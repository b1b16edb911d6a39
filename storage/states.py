"""The states the core moves users, drafts and jobs through; storage keeps them in columns.

A leaf module below both: it imports nothing, so storage maps these to columns without
reading the core, and the core imports them from here.
"""

from __future__ import annotations

import enum

__all__ = ["Awaiting", "DraftKind", "DraftStep", "JobStatus", "PlanStatus", "RunStatus"]


class Awaiting(enum.StrEnum):
    """What the bot waits for the user to type next."""

    EMAIL = "email"
    PASSWORD = "password"  # noqa: S105  (what is awaited, not a secret)
    TITLE = "title"
    BULK_TITLES = "bulk_titles"
    TOPIC = "topic"
    CLIENT_NAME = "client_name"
    PLAN_TITLES = "plan_titles"
    # A client's WordPress site: its address, the username, then the application password.
    SITE_URL = "site_url"
    SITE_USERNAME = "site_username"
    SITE_PASSWORD = "site_password"  # noqa: S105  (what is awaited, not a secret)


class DraftKind(enum.StrEnum):
    """One article, or several with one tone and size."""

    SINGLE = "single"
    BULK = "bulk"
    # A plan being written: its titles, tone and size; saved, never charged itself.
    PLAN = "plan"


class DraftStep(enum.StrEnum):
    """Where an order stands; ``READY -> SUBMITTED`` is the one conditional charge step."""

    TITLE = "title"
    # Which client the order is for; asked first, only of a user who has clients.
    CLIENT = "client"
    TONE = "tone"
    SIZE = "size"
    READY = "ready"
    SUBMITTED = "submitted"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


class JobStatus(enum.StrEnum):
    """A created upstream job as the bot tracks it."""

    PENDING = "pending"
    FINISHED = "finished"
    FAILED = "failed"
    DELIVERED = "delivered"
    EXPIRED = "expired"
    # Finished, but sending it kept failing; the user was told to open it from the list.
    UNSENDABLE = "unsendable"


# The content calendar.


class PlanStatus(enum.StrEnum):
    """Where a plan of the content calendar stands."""

    MAKING = "making"  # its draft goes through tone and size; not yet saved
    ACTIVE = "active"
    PAUSED = "paused"
    DONE = "done"
    DELETED = "deleted"


class RunStatus(enum.StrEnum):
    """One run of a plan: claimed by one process, then ordered, skipped or stopped."""

    CLAIMED = "claimed"
    ORDERED = "ordered"
    SKIPPED = "skipped"  # too late: more than an hour past its time
    STOPPED = "stopped"  # nothing ordered: the plan was paused (balance, target)
