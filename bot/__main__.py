"""``python -m bot``: run the bot on a chat platform, the sandbox, or a maintenance command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import logging
import signal
import sys
from collections.abc import AsyncIterator, Sequence

from prompt_toolkit.patch_stdout import patch_stdout
from pydantic import SecretStr
from rich.console import Console

from bot import sandbox
from bot.bootstrap import configured_platforms, running_bot, sandboxed, serve_chats
from bot.config import ConfigError, Settings, load_settings
from bot.logs import configure_logging
from bot.shell import PLATFORM as SHELL
from bot.shell import PipedLines, PromptLines, ShellChat, ShellMessenger
from storage import Database, TokenCipher, upstream_sessions

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
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    console = Console(highlight=False, width=None if interactive else 100)
    async with _upstream(settings, args.sandbox, args.speed) as local, running_bot(local) as bot:
        messenger = ShellMessenger(console, local.data_dir / "articles")
        bot.messengers[SHELL] = messenger
        bot.start_delivery()
        user = getpass.getuser()
        lines = PromptLines(user) if interactive else PipedLines(console, user)
        chat = ShellChat(bot.conversations, messenger, lines, user=user)
        if interactive:
            with patch_stdout(raw=True):
                await chat.run(patience=args.wait)
        else:
            await chat.run(patience=args.wait)


def _stop_on_signals() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
    return stop


async def _chats(settings: Settings, args: argparse.Namespace, platforms: tuple[str, ...]) -> None:
    async with _upstream(settings, args.sandbox, args.speed) as local:
        await serve_chats(local, platforms or configured_platforms(local), _stop_on_signals())


def _rotate_keys(settings: Settings) -> None:
    settings.require("token_encryption_key")
    assert settings.token_encryption_key is not None
    cipher = TokenCipher(settings.token_encryption_key.get_secret_value())
    db = Database.connect(settings.effective_database_url)
    try:
        db.migrate()
        count = db.run_sync(lambda s: upstream_sessions.reencrypt_all(s, cipher=cipher))
    finally:
        db.dispose()
    print(f"re-encrypted {count} session(s) under the first key")


def _migrate(settings: Settings) -> None:
    db = Database.connect(settings.effective_database_url)
    try:
        db.migrate()
    finally:
        db.dispose()
    print("database is up to date")


def _sandbox_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sandbox", action="store_true", help="run the built-in article service")
    parser.add_argument(
        "--speed", type=float, default=sandbox.DEMO_SPEED, help="sandbox clock speed"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    shell = commands.add_parser("shell", help="chat with the bot in this terminal")
    _sandbox_options(shell)
    shell.add_argument(
        "--wait", type=float, default=90.0, help="seconds to wait for articles at end of input"
    )
    _sandbox_options(commands.add_parser("run", help="every configured chat platform at once"))
    _sandbox_options(commands.add_parser("telegram", help="the Telegram bot"))
    _sandbox_options(commands.add_parser("slack", help="the Slack app"))
    commands.add_parser("sandbox", help="serve the built-in article service", add_help=False)
    commands.add_parser("migrate", help="apply database migrations")
    commands.add_parser("rotate-keys", help="re-encrypt stored tokens under the first key")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and run the chosen command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sandbox"]:
        sandbox.main(argv[1:])
        return
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
        if args.command == "shell":
            # The terminal is the chat: the log goes to a file beside the database.
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            with (settings.data_dir / SHELL_LOG).open("a", encoding="utf-8") as log_file:
                configure_logging(settings.log_level, _secrets(settings), stream=log_file)
                asyncio.run(_shell(settings, args))
            return
        configure_logging(settings.log_level, _secrets(settings))
        match args.command:
            case "run":
                asyncio.run(_chats(settings, args, ()))
            case "telegram" | "slack":
                asyncio.run(_chats(settings, args, (args.command,)))
            case "migrate":
                _migrate(settings)
            case "rotate-keys":
                _rotate_keys(settings)
    except ConfigError as err:
        sys.exit(f"configuration: {err}")
    except KeyboardInterrupt:
        pass
    except Exception:
        # Python's own traceback printer would bypass the redaction of secrets.
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
