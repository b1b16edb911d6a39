"""The terminal chat: the same dialogs as Telegram and Slack, typed in a terminal."""

from bot.shell.chat import PLATFORM, ShellChat
from bot.shell.lines import PipedLines, PromptLines
from bot.shell.messenger import ShellMessenger
from bot.shell.parsing import parse_line
from bot.shell.platform import TerminalPlatform

__all__ = [
    "PLATFORM",
    "PipedLines",
    "PromptLines",
    "ShellChat",
    "ShellMessenger",
    "TerminalPlatform",
    "parse_line",
]
