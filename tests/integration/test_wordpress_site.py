"""The WordPress adapter against the fake site over loopback: connecting, drafts written once
and updated, and each refusal diagnosed by its code."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import httpx
import pytest

from bot.core.publishing import PublishedPost, SiteCredentials, post_draft
from bot.core.publishing.errors import (
    AppPasswordsOff,
    AuthorizationStripped,
    CredentialsOrHeader,
    CredentialsRejected,
    NotAllowed,
    NotWordPress,
    RestBlocked,
    SiteError,
    SiteUnreachable,
    TlsRequired,
    UnknownUsername,
    WrongPassword,
)
from bot.sites.wordpress import WordPress
from tests import wordpress_fixtures as shared
from tests.fake_wordpress import FakeWordPress
from tests.wordpress_fixtures import (
    ARTICLE,
    TITLE,
    creds_of,
)

# The shared fixture these tests take.
wordpress = shared.wordpress


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=2.0) as client:
        yield client


@pytest.fixture
def adapter(http: httpx.AsyncClient) -> WordPress:
    return WordPress(http, attempts=3, wait_initial=0.01, wait_max=0.02)


async def test_check_names_the_site(adapter: WordPress, wordpress: FakeWordPress) -> None:
    assert await adapter.check(creds_of(wordpress)) == "Örnek Blog"


async def test_check_through_rest_route_where_links_are_plain(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    with wordpress.mode("plain_links"):
        assert await adapter.check(creds_of(wordpress)) == "Örnek Blog"


async def test_a_draft_in_blocks_then_an_update_of_the_same_post(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    creds = creds_of(wordpress)
    first = await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)
    post = wordpress.site.posts[first.post_id]
    assert (post.status, post.slug, post.title) == ("draft", "yapay-zeka-ile-icerik-uretimi", TITLE)
    assert post.excerpt == "İlk paragraf."
    assert '<!-- wp:list {"ordered":true} -->' in post.content
    assert first == PublishedPost(
        post_id=first.post_id,
        link=f"{wordpress.base_url}/?p={first.post_id}",
        edit_link=f"{wordpress.base_url}/wp-admin/post.php?post={first.post_id}&action=edit",
        status="draft",
    )
    longer = post_draft(TITLE, ARTICLE + "\nSon söz.\n")
    second = await adapter.publish(creds, longer, first.post_id)
    assert second.post_id == first.post_id
    assert len(wordpress.site.posts) == 1
    assert "Son söz." in post.content


async def test_plain_links_publish_too(adapter: WordPress, wordpress: FakeWordPress) -> None:
    with wordpress.mode("plain_links"):
        published = await adapter.publish(creds_of(wordpress), post_draft(TITLE, ARTICLE), None)
    assert wordpress.site.posts[published.post_id].status == "draft"


async def test_a_write_whose_answer_was_lost_is_not_made_twice(
    wordpress: FakeWordPress,
) -> None:
    wordpress.site.lost_answers = 1
    async with httpx.AsyncClient(timeout=0.5) as http:
        adapter = WordPress(http, attempts=3, wait_initial=0.01, wait_max=0.02)
        published = await adapter.publish(creds_of(wordpress), post_draft(TITLE, ARTICLE), None)
    assert list(wordpress.site.posts) == [published.post_id]


async def test_a_post_deleted_on_the_site_is_written_anew(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    creds = creds_of(wordpress)
    first = await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)
    del wordpress.site.posts[first.post_id]
    second = await adapter.publish(creds, post_draft(TITLE, ARTICLE), first.post_id)
    assert second.post_id != first.post_id
    assert list(wordpress.site.posts) == [second.post_id]


async def test_a_published_post_stays_published_when_updated(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    creds = creds_of(wordpress)
    first = await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)
    wordpress.site.posts[first.post_id].status = "publish"
    again = await adapter.publish(creds, post_draft(TITLE, ARTICLE), first.post_id)
    assert again.status == "publish"


async def test_5xx_is_retried_then_passes(adapter: WordPress, wordpress: FakeWordPress) -> None:
    wordpress.site.faults = [503, 502]
    assert await adapter.check(creds_of(wordpress)) == "Örnek Blog"
    assert wordpress.site.faults == []


async def test_5xx_that_lasts_is_unreachable(adapter: WordPress, wordpress: FakeWordPress) -> None:
    wordpress.site.faults = [503] * 3
    with pytest.raises(SiteUnreachable):
        await adapter.check(creds_of(wordpress))


async def test_one_write_at_a_time_per_site(adapter: WordPress, wordpress: FakeWordPress) -> None:
    creds = creds_of(wordpress)
    drafts = [post_draft(f"{TITLE} {n}", ARTICLE) for n in range(3)]
    await asyncio.gather(*(adapter.publish(creds, draft, None) for draft in drafts))
    assert len(wordpress.site.posts) == 3
    assert wordpress.site.most_writes_at_once == 1


@pytest.mark.parametrize(
    ("mode", "changes", "diagnosis"),
    [
        ("normal", {"username": "Makale Bot"}, CredentialsRejected),
        ("normal", {"app_password": "abcd efgh ijkl mnop qrst uvwx"}, CredentialsRejected),
        ("early_user_check", {"username": "Makale Bot"}, UnknownUsername),
        ("early_user_check", {"app_password": "abcd efgh ijkl mnop qrst uvwx"}, WrongPassword),
        ("strip_authorization", {}, AuthorizationStripped),
        ("no_app_passwords", {}, AppPasswordsOff),
        ("block_rest", {}, RestBlocked),
        ("firewall", {}, RestBlocked),
        ("https_only", {}, TlsRequired),
    ],
)
async def test_each_refusal_is_diagnosed(
    adapter: WordPress,
    wordpress: FakeWordPress,
    mode: str,
    changes: dict[str, str],
    diagnosis: type[SiteError],
) -> None:
    creds = creds_of(wordpress, **changes)
    with wordpress.mode(mode), pytest.raises(SiteError) as raised:
        await adapter.check(creds)
    assert type(raised.value) is diagnosis


async def test_a_revoked_password_is_refused(adapter: WordPress, wordpress: FakeWordPress) -> None:
    creds = creds_of(wordpress)
    wordpress.revoke_app_passwords()
    with pytest.raises(CredentialsRejected):
        await adapter.check(creds)
    fresh = wordpress.new_app_password()
    assert await adapter.check(creds_of(wordpress, app_password=fresh)) == "Örnek Blog"


async def test_without_xmlrpc_both_causes_are_named(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    wordpress.site.xmlrpc_off = True
    with wordpress.mode("strip_authorization"), pytest.raises(CredentialsOrHeader):
        await adapter.check(creds_of(wordpress))
    with pytest.raises(CredentialsOrHeader):
        await adapter.check(creds_of(wordpress, username="Makale Bot"))


async def test_a_stripped_header_is_diagnosed_when_publishing(
    adapter: WordPress, wordpress: FakeWordPress
) -> None:
    with wordpress.mode("strip_authorization"), pytest.raises(AuthorizationStripped):
        await adapter.publish(creds_of(wordpress), post_draft(TITLE, ARTICLE), None)
    assert wordpress.site.posts == {}


async def test_a_subscriber_may_not_write(adapter: WordPress, wordpress: FakeWordPress) -> None:
    reader = wordpress.site.add_user("okur", role="subscriber")
    creds = creds_of(wordpress, username="okur", app_password=reader.app_passwords[0])
    with pytest.raises(NotAllowed):
        await adapter.check(creds)
    with pytest.raises(NotAllowed):
        await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)


async def test_an_address_without_wordpress(adapter: WordPress, wordpress: FakeWordPress) -> None:
    with pytest.raises(NotWordPress):
        await adapter.check(creds_of(wordpress, url=f"{wordpress.base_url}/baska"))


async def test_nothing_listening_is_unreachable(adapter: WordPress) -> None:
    async with FakeWordPress.running() as gone:
        address = gone.base_url
    with pytest.raises(SiteUnreachable):
        await adapter.check(SiteCredentials(address, "editor", "x"))


async def test_the_password_is_never_logged(
    adapter: WordPress, wordpress: FakeWordPress, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    creds = creds_of(wordpress)
    with wordpress.mode("strip_authorization"), pytest.raises(AuthorizationStripped) as raised:
        await adapter.check(creds)
    await adapter.publish(creds, post_draft(TITLE, ARTICLE), None)
    secret = "".join(creds.app_password.split())
    shown = caplog.text + repr(creds) + str(raised.value) + repr(raised.value)
    assert caplog.records
    assert creds.app_password not in shown
    assert secret not in shown.replace(" ", "")
