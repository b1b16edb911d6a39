"""The Slack app: commands, presses, modals and DMs in; the core's screens out as Block Kit."""

from bot.slack.ids import PLATFORM
from bot.slack.messenger import SlackMessenger
from bot.slack.platform import SlackPlatform, SlackRules
from bot.slack.runtime import SlackRuntime, running_slack

__all__ = [
    "PLATFORM",
    "SlackMessenger",
    "SlackPlatform",
    "SlackRules",
    "SlackRuntime",
    "running_slack",
]
