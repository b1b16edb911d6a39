"""Typed settings, read once from the environment and ``.env``, then passed down."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.api import DEFAULT_BULK_PATH
from bot.slack.admin_chat import ADMIN_PREFIX, slack_admin_chat
from bot.whatsapp.admin_chat import whatsapp_admin_chat

__all__ = ["ConfigError", "Settings", "is_loopback_url", "load_settings"]

# Comma-separated ids in the environment; empty means everyone.
IdList = Annotated[frozenset[str], NoDecode]
_PLACEHOLDERS = {"changeme", "change-me", "changethis", "xxx", "your-token-here"}


class ConfigError(Exception):
    """A setting is missing or malformed; the message names its variable."""


def is_loopback_url(url: str) -> bool:
    """Whether the URL's host is this machine (the sandbox or a test server)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Settings(BaseSettings):
    """Every setting of the bot; the variable of a field is its name in upper case."""

    model_config = SettingsConfigDict(
        env_file=".env", env_ignore_empty=True, extra="ignore", frozen=True
    )

    # The article service.
    article_api_url: str | None = None
    article_api_bulk_path: str = DEFAULT_BULK_PATH
    article_api_topic_field: str = "konu"
    article_api_timeout_seconds: float = Field(default=20.0, gt=0)

    # Storage.
    data_dir: Path = Path("data")
    # A PostgreSQL URL carries its password, so it is kept out of reprs like the other secrets.
    database_url: SecretStr | None = None
    token_encryption_key: SecretStr | None = None

    # Delivery.
    poll_interval_seconds: float = Field(default=15.0, gt=0)
    job_timeout_hours: float = Field(default=24.0, gt=0)
    reconcile_grace_seconds: float = Field(default=600.0, gt=0)
    # How long a job stays with the process working on it unless renewed (a dead one's jobs
    # move on after about this long).
    delivery_lease_seconds: float = Field(default=15.0, ge=1)
    # How long a stop lets a round under way finish before it cuts it short (a send held by
    # the network, say), then how long a slow chat's queued notices may still go out; a
    # platform gives a stopping process about ten seconds before it kills it.
    stop_grace_seconds: float = Field(default=5.0, gt=0)

    # Telegram.
    telegram_bot_token: SecretStr | None = None
    telegram_api_url: str = "https://api.telegram.org"
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None

    # Slack.
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    # Many workspaces ("Add to Slack"): the app's credentials instead of one bot token.
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    slack_redirect_uri: str | None = None

    # WhatsApp (Meta's Cloud API): the Graph API's base; the bot adds the version and paths.
    whatsapp_access_token: SecretStr | None = None
    whatsapp_phone_number_id: str | None = None
    whatsapp_app_secret: SecretStr | None = None
    whatsapp_verify_token: SecretStr | None = None
    whatsapp_api_url: str = "https://graph.facebook.com"
    whatsapp_ready_template: str = "makale_hazir"

    # Who may use the bot, and where operators are told what they must know.
    allowed_telegram_users: IdList = frozenset()
    allowed_telegram_chats: IdList = frozenset()
    allowed_slack_teams: IdList = frozenset()
    allowed_slack_users: IdList = frozenset()
    allowed_whatsapp_users: IdList = frozenset()
    admin_chat: str | None = None

    # Metrics: /metrics answers only this bearer token; unset, it answers 404.
    metrics_token: SecretStr | None = None

    # The bot's own address, served on PORT by the host's router: the login page's links.
    public_url: str | None = None

    # Process.
    port: int = Field(default=8080, ge=1, le=65535)
    bot_language: Literal["tr", "en"] = "tr"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_format: Literal["text", "json"] = "text"

    # Logging of the libraries (markdown-it, httpx, the chat platforms' SDKs...): their own
    # DEBUG lines drown the bot's, so they are asked for apart.
    log_level_libraries: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "WARNING"
    # Time: the zone in which dates, months and plans' runs are counted.
    bot_timezone: str = "Europe/Istanbul"

    @field_validator(
        "allowed_telegram_users",
        "allowed_telegram_chats",
        "allowed_slack_teams",
        "allowed_slack_users",
        "allowed_whatsapp_users",
        mode="before",
    )
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return frozenset(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("admin_chat")
    @classmethod
    def _admin_chat(cls, value: str | None) -> str | None:
        named = value and (slack_admin_chat(value) or whatsapp_admin_chat(value))
        if value and not (value.lstrip("-").isdigit() or named):
            raise ValueError(
                "must be a Telegram chat id, slack: and a Slack channel id (slack:T…/C…"
                " with its workspace), or whatsapp: and a phone number"
            )
        return value

    @field_validator("log_level", "log_level_libraries", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("bot_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{value!r} is not a time zone name (e.g. Europe/Istanbul)") from None
        return value

    @property
    def zone(self) -> ZoneInfo:
        """The zone of ``BOT_TIMEZONE``."""
        return ZoneInfo(self.bot_timezone)

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_log_format(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator(
        "article_api_url",
        "telegram_api_url",
        "slack_api_url",
        "telegram_webhook_url",
        "slack_redirect_uri",
        "whatsapp_api_url",
        "public_url",
    )
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ValueError("must be an http(s) URL")
        return value

    @field_validator("article_api_url", "public_url", "whatsapp_api_url")
    @classmethod
    def _https_unless_loopback(cls, value: str | None) -> str | None:
        # Tokens travel in every request (a password in the login page's), so plain HTTP is
        # only for this machine.
        if value and urlsplit(value).scheme == "http" and not is_loopback_url(value):
            raise ValueError("must use https:// (http:// only for a loopback address)")
        return value.rstrip("/") if value else value

    @field_validator("telegram_webhook_url")
    @classmethod
    def _https_webhook(cls, value: str | None) -> str | None:
        # Telegram posts only to HTTPS; the TLS usually ends at the host's router.
        if value and urlsplit(value).scheme != "https":
            raise ValueError("must be an https:// URL (Telegram posts to HTTPS only)")
        return value

    @model_validator(mode="after")
    def _no_placeholder_secrets(self) -> Settings:
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, SecretStr) and value.get_secret_value().lower() in _PLACEHOLDERS:
                raise ValueError(f"{name.upper()} still holds a placeholder value")
        return self

    @model_validator(mode="after")
    def _one_slack_mode(self) -> Settings:
        if self.slack_client_id and self.slack_bot_token:
            raise ValueError(
                "SLACK_BOT_TOKEN and SLACK_CLIENT_ID: set the bot token for one workspace, or the"
                " client id and secret for many, not both"
            )
        if self.slack_multi_workspace and self.slack_app_token:
            raise ValueError(
                "SLACK_APP_TOKEN and SLACK_CLIENT_ID: many workspaces are served over HTTP,"
                " not Socket Mode; unset SLACK_APP_TOKEN"
            )
        admin = self.admin_chat or ""
        if self.slack_multi_workspace and admin.startswith(ADMIN_PREFIX) and "/" not in admin:
            raise ValueError("ADMIN_CHAT must name its workspace with many: slack:T…/C…")
        return self

    @property
    def slack_multi_workspace(self) -> bool:
        """Whether Slack serves many workspaces (SLACK_CLIENT_ID and no SLACK_BOT_TOKEN)."""
        return bool(self.slack_client_id) and self.slack_bot_token is None

    @property
    def port_set(self) -> bool:
        """Whether ``PORT`` was given: then ``/health`` is served in every mode."""
        return "port" in self.model_fields_set

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file of the database URL, if it names one."""
        url = self.effective_database_url
        if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
            return None
        return Path(url.removeprefix("sqlite:///"))

    @property
    def effective_database_url(self) -> str:
        """``DATABASE_URL``, else a SQLite file under the data directory."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{self.data_dir / 'makale.db'}"

    def require(self, *names: str) -> None:
        """Fail with the variables' names when any of these settings is unset."""
        missing = [name.upper() for name in names if getattr(self, name) in (None, "")]
        if missing:
            raise ConfigError(f"set {', '.join(missing)} (see .env.example)")


def load_settings(**overrides: object) -> Settings:
    """Read the settings, turning pydantic's report into one line per bad variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as err:
        lines = []
        for problem in err.errors():
            # Pydantic opens a validator's message with "Value error, ".
            message = problem["msg"].removeprefix("Value error, ")
            # A check of several settings has no one variable: its message names them.
            loc = problem["loc"]
            lines.append(f"{str(loc[0]).upper()}: {message}" if loc else message)
        raise ConfigError("; ".join(lines)) from None
