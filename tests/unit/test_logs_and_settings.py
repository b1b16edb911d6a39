"""Secrets never reach a log line; settings name the variable that is wrong."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest

from bot.config import ConfigError, load_settings
from bot.logs import RedactingFormatter, configure_logging

BOT_TOKEN = "123456789:AAEhBP0av18XgTcFy5_X0n-Q6QtQ5VqZ8k0"


@pytest.mark.parametrize(
    "secret_line",
    [
        f"POST https://api.telegram.org/bot{BOT_TOKEN}/sendMessage",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        "token xoxb-1234-5678-abcdefgh and xapp-1-A1-2-abc",
        '{"refreshToken": "r-0123456789abcdef"}',
        "password=Gizli12345",
        "custom value hunter2hunter2 in a traceback",
    ],
)
def test_redaction_masks_tokens_and_known_secrets(secret_line: str) -> None:
    formatter = RedactingFormatter("%(message)s", secrets=["hunter2hunter2"])
    record = logging.LogRecord("x", logging.INFO, __file__, 1, secret_line, None, None)
    shown = formatter.format(record)
    assert "***" in shown
    for secret in (
        BOT_TOKEN,
        "eyJzdWIi",
        "xoxb-1234",
        "r-0123456789abcdef",
        "Gizli12345",
        "hunter2hunter2",
    ):
        assert secret not in shown


def test_a_traceback_is_redacted_too() -> None:
    formatter = RedactingFormatter("%(message)s", secrets=["hunter2hunter2"])
    try:
        raise RuntimeError("login failed for hunter2hunter2")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", None, None)
        record.exc_info = sys.exc_info()
    assert "hunter2hunter2" not in formatter.format(record)


def test_a_text_record_is_one_line_and_its_traceback_is_indented_below_it() -> None:
    formatter = RedactingFormatter("%(levelname)s %(message)s")
    forged = "ERROR bot: fake"
    try:
        raise RuntimeError(f"bad answer\n{forged}\u2028{forged}")
    except RuntimeError:
        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "got %s", (f"a\n{forged}\x1b[2J",), sys.exc_info()
        )
    lines = formatter.format(record).splitlines()

    assert lines[0] == f"ERROR got a\\n{forged}\\x1b[2J"
    assert lines[1] == "  Traceback (most recent call last):"
    assert lines[-2:] == ["  RuntimeError: bad answer", f"  {forged}\\u2028{forged}"]
    assert all(line.startswith("  ") for line in lines[1:])
    # The record itself is left as it came, for any other handler.
    assert record.getMessage() == f"got a\n{forged}\x1b[2J"


@pytest.mark.parametrize(
    ("overrides", "variable"),
    [
        ({"article_api_url": "http://api.example.com"}, "ARTICLE_API_URL"),
        ({"article_api_url": "HTTP://api.example.com"}, "ARTICLE_API_URL"),
        ({"article_api_url": "ftp://x"}, "ARTICLE_API_URL"),
        ({"poll_interval_seconds": "0"}, "POLL_INTERVAL_SECONDS"),
        ({"telegram_webhook_url": "http://bot.example.com/hook"}, "TELEGRAM_WEBHOOK_URL"),
        ({"public_url": "http://bot.example.com"}, "PUBLIC_URL"),
        ({"public_url": "bot.example.com"}, "PUBLIC_URL"),
        ({"port": "99999"}, "PORT"),
        ({"bot_language": "de"}, "BOT_LANGUAGE"),
    ],
)
def test_a_bad_setting_is_named(overrides: dict[str, str], variable: str) -> None:
    with pytest.raises(ConfigError, match=variable):
        load_settings(_env_file=None, **overrides)


def test_placeholder_secrets_are_refused() -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN"):
        load_settings(_env_file=None, telegram_bot_token="changeme")


def test_missing_settings_are_named_together() -> None:
    settings = load_settings(_env_file=None)
    with pytest.raises(ConfigError, match="ARTICLE_API_URL, TELEGRAM_BOT_TOKEN"):
        settings.require("article_api_url", "telegram_bot_token")


def test_loopback_http_is_allowed_and_the_database_url_stays_secret() -> None:
    settings = load_settings(
        _env_file=None,
        article_api_url="http://127.0.0.1:8081/",
        database_url="postgresql://bot:s3cretpw@db.example.com/makale",
        public_url="http://localhost:8080/",
    )
    assert settings.article_api_url == "http://127.0.0.1:8081"
    assert settings.public_url == "http://localhost:8080"
    assert "s3cretpw" not in repr(settings)
    assert settings.sqlite_path is None


def test_json_logs_are_one_redacted_object_per_line(logging_restored: None) -> None:
    buffer = io.StringIO()
    configure_logging("INFO", secrets=["hunter2hunter2"], stream=buffer, log_format="json")
    log = logging.getLogger("bot.test_json")
    try:
        raise RuntimeError(f"refused {BOT_TOKEN}")
    except RuntimeError:
        log.exception("login of hunter2hunter2 failed", extra={"detail": "xoxb-1-2-abc"})
    log.info("second line")
    lines = buffer.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["levelname"] == "ERROR"
    assert first["name"] == "bot.test_json"
    assert "RuntimeError" in first["exc_info"]
    assert second["message"] == "second line"
    for secret in ("hunter2hunter2", BOT_TOKEN, "xoxb-1-2-abc"):
        assert secret not in buffer.getvalue()


@pytest.mark.parametrize(
    ("libraries", "shown"),
    [
        ("WARNING", ["bot.core.x", "storage.x"]),
        ("DEBUG", ["bot.core.x", "storage.x", "markdown_it.rules_block", "asyncio"]),
    ],
)
def test_at_debug_the_libraries_log_only_when_asked_for(
    logging_restored: None, libraries: str, shown: list[str]
) -> None:
    buffer = io.StringIO()
    configure_logging("DEBUG", stream=buffer, library_level=libraries)
    names = [*shown, "markdown_it.rules_block", "asyncio", "telegram.ext", "httpx"]
    for name in names:
        logging.getLogger(name).debug("a line of %s", name)
    logged = buffer.getvalue()
    # The libraries that log secrets stay capped whatever was asked for.
    assert [name for name in dict.fromkeys(names) if f"a line of {name}" in logged] == shown


def test_the_libraries_level_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings(_env_file=None).log_level_libraries == "WARNING"
    monkeypatch.setenv("LOG_LEVEL_LIBRARIES", "debug")
    assert load_settings(_env_file=None).log_level_libraries == "DEBUG"


def test_lists_and_the_admin_chat_are_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ALLOWED_TELEGRAM_USERS", "1001, 1002,,")
    monkeypatch.setenv("ALLOWED_SLACK_TEAMS", "T1")
    monkeypatch.setenv("ADMIN_CHAT", "slack:C42")
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    settings = load_settings(_env_file=None)
    assert settings.allowed_telegram_users == frozenset({"1001", "1002"})
    assert settings.allowed_telegram_chats == frozenset()
    assert settings.allowed_slack_teams == frozenset({"T1"})
    assert settings.admin_chat == "slack:C42"
    assert settings.log_format == "json"
    assert not settings.port_set
    monkeypatch.setenv("PORT", "9000")
    assert load_settings(_env_file=None).port_set


@pytest.mark.parametrize("value", ["general", "slack:", "12ab"])
def test_an_admin_chat_must_name_a_chat(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("ADMIN_CHAT", value)
    with pytest.raises(ConfigError, match="ADMIN_CHAT"):
        load_settings(_env_file=None)
