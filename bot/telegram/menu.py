"""The command menu: Turkish descriptions for everyone, English ones for English clients."""

from __future__ import annotations

from telegram import Bot, BotCommand

from bot.core.texts import LANGUAGES, TURKISH_CODE

__all__ = ["publish_commands"]


async def publish_commands(bot: Bot) -> None:
    """Register the commands with setMyCommands, once per language."""
    for code, texts in LANGUAGES.items():
        commands = [BotCommand(name, description) for name, description in texts.help_commands]
        await bot.set_my_commands(commands, language_code=None if code == TURKISH_CODE else code)
