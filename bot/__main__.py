"""python -m bot: run the bot on a chat platform, the sandbox, or a maintenance command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any

from pydantic import SecretStr

from bot import sandbox
from bot.bootstrap import (
    CHAT_PLATFORMS,
    configured_platforms,
    platforms_named,
    sandboxed,
    serve_chats,
)
from bot.chat_platform import ChatPlatform
from bot.config import ConfigError, Settings, load_settings
from bot.core.retries import StoppedWhileStarting
from bot.logs import configure_logging
from bot.shell import PLATFORM as SHELL
from bot.shell import TerminalPlatform
from bot.token_keys import token_cipher
from storage import Database, DatabaseUnusable, sites, slack_installations, upstream_sessions

__all__ = ["SHELL_LOG", "main"]

log = logging.getLogger("bot")

SHELL_LOG = "shell.log"


def _secrets(settings: Settings) -> list[str]:
    values = (getattr(settings, name) for name in type(settings).model_fields)
    return [value.get_secret_value() for value in values if isinstance(value, SecretStr)]


@contextlib.asynccontextmanager
async def _upstream(settings: Settings, use_sandbox: bool, speed: float) -> AsyncIterator[Settings]:
    if not use_sandbox:
        yield settings
        return
    async with sandboxed(settings, speed=speed) as (local, running):
        print(
            f"Sandbox: {running.url} · deneme hesabı / demo account: "
            f"{sandbox.DEMO_EMAIL} / {sandbox.DEMO_PASSWORD}",
            file=sys.stderr,
        )
        yield local


async def _shell(settings: Settings, args: argparse.Namespace) -> None:
    async with _upstream(settings, args.sandbox, args.speed) as local:
        # Ctrl-C is the chat's own key (it cancels a dialog); the chat stops when its user leaves.
        await serve_chats(local, (TerminalPlatform(patience=args.wait),), asyncio.Event())


def _stop_on_signals() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
    return stop


async def _chats(
    settings: Settings, args: argparse.Namespace, chats: tuple[ChatPlatform, ...]
) -> None:
    # A missing token is said before a sandbox starts, not after its banner.
    for chat in chats:
        chat.require(settings)
    async with _upstream(settings, args.sandbox, args.speed) as local:
        await serve_chats(local, chats or configured_platforms(local), _stop_on_signals())


def _rotate_keys(settings: Settings) -> None:
    settings.require("token_encryption_key")
    cipher = token_cipher(settings)
    db = Database.connect(settings.effective_database_url)
    try:
        db.migrate()
        count = db.run_sync(lambda s: upstream_sessions.reencrypt_all(s, cipher=cipher))
        bots = db.run_sync(lambda s: slack_installations.reencrypt_all(s, cipher=cipher))
        site_passwords = db.run_sync(lambda s: sites.reencrypt_all(s, cipher=cipher))
    finally:
        db.dispose()
    print(
        f"re-encrypted {count} session(s), {bots} Slack bot token(s) and {site_passwords}"
        " site password(s) under the first key"
    )


def _migrate(settings: Settings) -> None:
    db = Database.connect(settings.effective_database_url)
    try:
        created = db.migrate()
    finally:
        db.dispose()
    if created is None:
        print("database is up to date")
    else:
        print("database schema created" if created else "database migrated to the newest schema")


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A sub-command whose help shows every option's default."""
    return commands.add_parser(
        name, formatter_class=argparse.ArgumentDefaultsHelpFormatter, **kwargs
    )


def _sandbox_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sandbox", action="store_true", help="run the built-in article service")
    parser.add_argument(
        "--speed", type=float, default=sandbox.DEMO_SPEED, help="sandbox clock speed"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    terminal = TerminalPlatform()
    shell = _command(commands, terminal.name, help=terminal.summary)
    _sandbox_options(shell)
    shell.add_argument(
        "--wait",
        type=float,
        default=terminal.patience,
        help="seconds to wait for articles at end of input",
    )
    _sandbox_options(_command(commands, "run", help="every configured chat platform at once"))
    for chat in CHAT_PLATFORMS:
        if chat.name not in commands.choices:
            _sandbox_options(_command(commands, chat.name, help=chat.summary))
    commands.add_parser("sandbox", help="serve the built-in article service", add_help=False)
    _command(commands, "migrate", help="apply database migrations")
    _command(commands, "rotate-keys", help="re-encrypt stored tokens under the first key")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and run the chosen command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sandbox"]:
        sandbox.main(argv[1:])
        return
    args = _parser().parse_args(argv)
    # The log file stays open until the last message, which may be about the failure.
    with contextlib.ExitStack() as open_files:
        try:
            settings = load_settings()
            log_file = None
            if args.command == SHELL:
                # The terminal is the chat: the log goes to a file beside the database.
                settings.data_dir.mkdir(parents=True, exist_ok=True)
                log_path = settings.data_dir / SHELL_LOG
                log_file = open_files.enter_context(log_path.open("a", encoding="utf-8"))
            configure_logging(
                settings.log_level,
                _secrets(settings),
                log_file,
                settings.log_format,
                settings.log_level_libraries,
            )
            match args.command:
                case "run":
                    asyncio.run(_chats(settings, args, ()))
                case "migrate":
                    _migrate(settings)
                case "rotate-keys":
                    _rotate_keys(settings)
                case name if name == SHELL:
                    asyncio.run(_shell(settings, args))
                case name:
                    asyncio.run(_chats(settings, args, platforms_named(name)))
        except ConfigError as err:
            sys.exit(f"configuration: {err}")
        except DatabaseUnusable as err:
            sys.exit(f"configuration: DATABASE_URL {err}")
        except (KeyboardInterrupt, StoppedWhileStarting):
            pass
        except Exception:
            # Python's own traceback printer would bypass the redaction of secrets.
            log.critical("the bot stopped on an unexpected error", exc_info=True)
            sys.exit(1)


if __name__ == "__main__":
    main()
