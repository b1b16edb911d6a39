"""Logins by link in tests: a platform whose chats keep every message, and the page's form."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from html import unescape
from typing import Any

import httpx
import pytest

from bot import bootstrap
from bot.config import Settings
from bot.core.platforms import ChatRules, OpenRules

__all__ = ["LINK", "csrf_of", "keep_every_message", "link_in", "log_in_by_page"]

LINK = re.compile(r"https?://\S+/giris/[A-Za-z0-9_-]+")
_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


@dataclass(frozen=True)
class _KeepsMessages:
    """A chat platform of the table, but with rules saying no message can be deleted in its
    chats, as WhatsApp's do; a name the table lacks gets the open rules so."""

    name: str
    platform: Any = None

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.platform, attribute)

    def rules(self, settings: Settings) -> ChatRules:
        rules = self.platform.rules(settings) if self.platform else OpenRules(self.name)
        return replace(rules, login_in_chat=False)


def keep_every_message(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the bots this test starts treat platform ``name`` as one whose messages stay."""
    table = bootstrap.CHAT_PLATFORMS
    by_name = {platform.name: platform for platform in table}
    wrapped = _KeepsMessages(name, by_name.get(name))
    others = tuple(platform for platform in table if platform.name != name)
    monkeypatch.setattr(bootstrap, "CHAT_PLATFORMS", (*others, wrapped))


def link_in(text: str) -> str:
    """The login link in a message."""
    found = LINK.search(text)
    assert found is not None, f"no login link in {text!r}"
    return found.group(0)


def csrf_of(page: str) -> str:
    """The CSRF token in the page's form."""
    found = _CSRF.search(page)
    assert found is not None, "no form on the page"
    return unescape(found.group(1))


async def log_in_by_page(
    client: httpx.AsyncClient, link: str, email: str, password: str
) -> httpx.Response:
    """Open the link and send its form, as a browser does (the client keeps the cookie)."""
    shown = await client.get(link)
    assert shown.status_code == 200, shown.text
    fields = {"csrf": csrf_of(shown.text), "email": email, "password": password}
    return await client.post(link, data=fields)
