"""The bot's database: tables, token encryption, migrations and typed repository functions.

Repository functions live in one module per concern (``storage.users``, ``storage.drafts``,
...); each takes the ``Session`` that ``Database.run`` hands to a unit of work, then
keyword-only arguments. The few that run prepared statements alone take any
``Transaction``: a session, or the ``DriverTransaction`` of ``Database.run_brief``.
"""

from storage import (
    announcements,
    bookkeeping,
    chat_paces,
    clients,
    drafts,
    jobs,
    login_links,
    plans,
    shares,
    slack_installations,
    spending,
    stats,
    targets,
    upstream_sessions,
    users,
)
from storage.crypto import (
    InvalidKey,
    TokenCipher,
    UndecryptableToken,
    generate_key,
    load_or_create_key_file,
)
from storage.database import Database, DatabaseUnusable, MigrationError
from storage.leadership import Leadership
from storage.models import (
    Awaiting,
    ChatUser,
    Client,
    Draft,
    DraftKind,
    DraftStep,
    Job,
    JobStatus,
    LoginAttempt,
    ProcessedUpdate,
    SlackInstallation,
    SlackOAuthState,
    UpstreamSession,
    utcnow,
)
from storage.prepared import DriverTransaction, Transaction
from storage.slack_installations import SlackInstallations
from storage.upstream_sessions import AccessToken, StoredSession, Tokens

__all__ = [
    "AccessToken",
    "Awaiting",
    "ChatUser",
    "Client",
    "Database",
    "DatabaseUnusable",
    "Draft",
    "DraftKind",
    "DraftStep",
    "DriverTransaction",
    "InvalidKey",
    "Job",
    "JobStatus",
    "Leadership",
    "LoginAttempt",
    "MigrationError",
    "ProcessedUpdate",
    "SlackInstallation",
    "SlackInstallations",
    "SlackOAuthState",
    "StoredSession",
    "TokenCipher",
    "Tokens",
    "Transaction",
    "UndecryptableToken",
    "UpstreamSession",
    "announcements",
    "bookkeeping",
    "chat_paces",
    "clients",
    "drafts",
    "generate_key",
    "jobs",
    "load_or_create_key_file",
    "login_links",
    "plans",
    "shares",
    "slack_installations",
    "spending",
    "stats",
    "targets",
    "upstream_sessions",
    "users",
    "utcnow",
]
