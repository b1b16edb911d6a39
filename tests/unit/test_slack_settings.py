"""Slack's two modes in the settings: one workspace by its bot token, or many by the app's
credentials; what each needs is named, and the manifest agrees with the install link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.bootstrap import platforms_named
from bot.config import ConfigError, load_settings
from bot.core.conversation.events import ChatAddress
from bot.slack.platform import SlackRules
from bot.slack.scopes import BOT_SCOPES
from bot.slack.settings import required

(SLACK,) = platforms_named("slack")
MANY = {"slack_client_id": "1.2", "slack_client_secret": "s3cr3t-client", "_env_file": None}


def test_a_client_id_without_a_bot_token_serves_many_workspaces() -> None:
    settings = load_settings(**MANY, slack_signing_secret="signing")
    assert settings.slack_multi_workspace
    assert SLACK.configured(settings)
    required(settings)
    assert not load_settings(_env_file=None, slack_bot_token="xoxb-1").slack_multi_workspace


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"slack_bot_token": "xoxb-1"}, "SLACK_BOT_TOKEN and SLACK_CLIENT_ID"),
        ({"slack_app_token": "xapp-1"}, "SLACK_APP_TOKEN and SLACK_CLIENT_ID"),
        ({"admin_chat": "slack:C1"}, "ADMIN_CHAT"),
    ],
)
def test_what_cannot_go_with_many_workspaces_is_named(extra: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_settings(**MANY, **extra)


def test_many_workspaces_need_the_secret_and_the_signing_secret() -> None:
    settings = load_settings(_env_file=None, slack_client_id="1.2")
    # Slack counts as set up, so that the start names what it still needs.
    assert SLACK.configured(settings)
    with pytest.raises(ConfigError, match="SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET"):
        SLACK.require(settings)
    partial = load_settings(**MANY)
    with pytest.raises(ConfigError, match="SLACK_SIGNING_SECRET"):
        SLACK.require(partial)


def test_an_admin_chat_names_its_workspace_where_there_are_many() -> None:
    settings = load_settings(**MANY, admin_chat="slack:T1/C42")
    assert settings.admin_chat is not None
    chat = SlackRules().admin_chat(settings.admin_chat)
    assert chat == ChatAddress("slack", "C42", workspace="T1")
    assert SlackRules().admin_chat("slack:C42") == ChatAddress("slack", "C42")


def test_the_install_link_asks_for_the_manifests_bot_scopes() -> None:
    manifest = (Path(__file__).parents[2] / "slack" / "manifest.yml").read_text()
    bot = manifest.split("    bot:\n", 1)[1].split("settings:", 1)[0]
    assert tuple(re.findall(r"^      - (\S+)$", bot, re.MULTILINE)) == BOT_SCOPES
