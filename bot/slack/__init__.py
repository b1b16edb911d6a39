"""The Slack app: commands, presses, modals and DMs in; the core's screens out as Block Kit.

``bot.slack.runtime`` starts it. It is not imported here: Bolt and aiohttp take a fair part
of a second to load, which neither a process without Slack nor the unit tier, reading the
app's pure parts (its Block Kit, its scopes), has to pay.
"""

from bot.slack.ids import PLATFORM

__all__ = ["PLATFORM"]
