"""The WordPress adapter against a real WordPress (the slow tier's ``real_wordpress``):
connecting, a draft in blocks written once and updated, a scheduled post, and each refusal
people meet, diagnosed as on the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from bot.core.publishing import post_draft
from bot.core.publishing.errors import (
    AppPasswordsOff,
    AuthorizationStripped,
    CredentialsRejected,
    RestBlocked,
    SiteError,
)
from bot.sites.wordpress import WordPress
from tests.wordpress_fixtures import creds_of

real = pytest.importorskip("tests.real_wordpress")
# The session's WordPress, started once (Debian's package, PHP's built-in server, MariaDB).
real_wordpress = real.real_wordpress

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TITLE = "Yapay zekâ ile içerik üretimi"
ARTICLE = (
    f"# {TITLE}\n\nİlk paragraf, [kaynaklar](https://example.com/kaynaklar) ile.\n\n"
    "## Adımlar\n\n1. Bir\n2. İki\n\n| Yöntem | Süre |\n|---|---|\n| SEO | 6-12 ay |\n"
)


@pytest.fixture
async def adapter() -> AsyncIterator[WordPress]:
    async with httpx.AsyncClient(timeout=30.0) as http:
        yield WordPress(http, attempts=2, wait_initial=0.1, wait_max=0.2)


async def raw_post(site: Any, post_id: int) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30.0) as http:
        answer = await http.get(
            f"{site.base_url}/",
            params={"rest_route": f"/wp/v2/posts/{post_id}", "context": "edit"},
            auth=(site.username, site.app_password),
        )
    answer.raise_for_status()
    post: dict[str, Any] = answer.json()
    return post


async def test_a_draft_in_blocks_is_written_once_and_updated(
    adapter: WordPress, real_wordpress: Any
) -> None:
    creds = creds_of(real_wordpress)
    assert await adapter.check(creds)
    first = await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)
    second = await adapter.publish(creds, post_draft(TITLE, ARTICLE + "\nSon söz.\n"), None)
    assert second.post_id == first.post_id, "found again by its slug and title"
    post = await raw_post(real_wordpress, first.post_id)
    assert (post["status"], post["slug"]) == ("draft", "yapay-zeka-ile-icerik-uretimi")
    raw = post["content"]["raw"]
    assert '<!-- wp:list {"ordered":true} -->' in raw
    assert '<a href="https://example.com/kaynaklar">kaynaklar</a>' in raw
    assert "Son söz." in raw
    assert post["excerpt"]["raw"] == "İlk paragraf, kaynaklar ile."
    assert first.edit_link.endswith(f"post.php?post={first.post_id}&action=edit")


async def test_a_scheduled_post_is_future(adapter: WordPress, real_wordpress: Any) -> None:
    at = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0)
    draft = post_draft(f"{TITLE} planlı", ARTICLE, scheduled_at=at)
    published = await adapter.publish(creds_of(real_wordpress), draft, None)
    post = await raw_post(real_wordpress, published.post_id)
    assert post["status"] == "future"
    assert post["date_gmt"] == at.strftime("%Y-%m-%dT%H:%M:%S")


async def test_plain_links_work_too(adapter: WordPress, real_wordpress: Any) -> None:
    with real_wordpress.mode("plain_links"):
        assert await adapter.check(creds_of(real_wordpress))


@pytest.mark.parametrize(
    ("mode", "changes", "diagnosis"),
    [
        ("normal", {"username": "Makale Bot"}, CredentialsRejected),
        ("normal", {"app_password": "abcd efgh ijkl mnop qrst uvwx"}, CredentialsRejected),
        ("strip_authorization", {}, AuthorizationStripped),
        ("no_app_passwords", {}, AppPasswordsOff),
        ("block_rest", {}, RestBlocked),
    ],
)
async def test_each_refusal_is_diagnosed(
    adapter: WordPress,
    real_wordpress: Any,
    mode: str,
    changes: dict[str, str],
    diagnosis: type[SiteError],
) -> None:
    creds = creds_of(real_wordpress, **changes)
    with real_wordpress.mode(mode), pytest.raises(SiteError) as raised:
        await adapter.check(creds)
    assert type(raised.value) is diagnosis


async def test_a_revoked_password_then_a_new_one(adapter: WordPress, real_wordpress: Any) -> None:
    old = creds_of(real_wordpress)
    real_wordpress.revoke_app_passwords()
    with pytest.raises(CredentialsRejected):
        await adapter.check(old)
    fresh = real_wordpress.new_app_password()
    assert await adapter.check(creds_of(real_wordpress, app_password=fresh))
