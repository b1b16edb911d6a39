"""README's deployment steps can be followed top to bottom on each platform: each names the
article service's URL, and the page says what the bot serves and what it needs in front."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text under a heading, up to the next heading of its level or above."""
    level = heading.split(" ")[0]
    start = README.index(f"\n{heading}\n")
    ends = re.compile(rf"\n#{{1,{len(level)}}} ")
    found = ends.search(README, start + 1)
    return README[start : found.start() if found else len(README)]


@pytest.mark.parametrize(
    "heading", ["## Telegram", "## Slack", "### Distribute to many workspaces"]
)
def test_each_platforms_steps_name_the_article_services_url(heading: str) -> None:
    # The platform's own steps: its section up to its first sub-section.
    steps = section(heading).partition(f"{heading}\n")[2].split("\n### ")[0]
    assert "ARTICLE_API_URL" in steps, heading


def test_the_deployment_says_plain_http_on_port_with_https_in_front() -> None:
    deployment = section("## Deployment")
    assert "plain\nHTTP on `$PORT`" in deployment or "plain HTTP on `$PORT`" in deployment
    assert "HTTPS in front" in deployment.replace("\n", " ")
    assert "`Secure`" in deployment, "why the install needs HTTPS: its cookie"


def test_plans_in_the_terminal_chat_are_said_to_run_only_while_it_is_open() -> None:
    flat = README.replace("\n", " ")
    assert "run only while it is open" in flat
    assert "run only while that chat is open" in flat
