"""A client's WordPress site in the dialogs, against the fake site over loopback: connecting
it from /musteriler, the diagnosis of a refused one, and an article written there as one draft
post however often ``WordPress'e taslak`` is pressed."""

from __future__ import annotations

import asyncio

from bot.core.conversation.events import Press, SiteForm
from bot.core.conversation.screens import Delete
from tests import wordpress_fixtures as shared
from tests.dialog_harness import Harness, labels, texts
from tests.fake_upstream import FakeUpstream
from tests.fake_wordpress import FakeWordPress
from tests.wordpress_fixtures import (
    CLIENT,
    client_chat,
    connect,
    delivered,
    delivered_buttons,
    site_record,
    stored_sites,
)

# The shared fixtures these tests take.
h, upstream, wordpress = shared.h, shared.upstream, shared.wordpress


async def test_a_site_connects_and_its_password_is_kept_encrypted(
    h: Harness, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    answer = await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)

    assert any(isinstance(e, Delete) for e in answer), "the password's message goes at once"
    assert f"Bağlandı: Örnek Blog. {CLIENT}" in texts(answer)  # type: ignore[arg-type]
    (site,) = stored_sites(h)
    assert wordpress.app_password.encode() not in site.app_password
    assert h.bot.cipher.decrypt(site.app_password) == wordpress.app_password
    listing = await chat.say("/musteriler")
    assert "🌐 Örnek Blog" in texts(listing)
    shown = await chat.press(f"Web sitesi · {CLIENT}")
    assert wordpress.base_url in texts(shown)
    assert labels(shown) == ["Siteyi değiştir", "Siteyi kaldır"]
    assert "kaldırıldı" in texts(await chat.press("Siteyi kaldır"))
    assert stored_sites(h) == []


async def test_a_refused_password_is_diagnosed_and_nothing_is_stored(
    h: Harness, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    answer = await connect(chat, wordpress.base_url, "Makale Bot", wordpress.app_password)
    said = texts(answer)  # type: ignore[arg-type]
    assert "kullanıcı adını ya da uygulama şifresini kabul etmedi" in said
    assert wordpress.app_password not in said
    assert stored_sites(h) == []
    with wordpress.mode("strip_authorization"):
        stripped = await connect(
            chat, wordpress.base_url, wordpress.username, wordpress.app_password
        )
    assert "Authorization" in texts(stripped)  # type: ignore[arg-type]
    assert stored_sites(h) == []


async def test_a_bad_address_is_asked_again(h: Harness) -> None:
    chat = await client_chat(h)
    await chat.say("/musteriler")
    await chat.press(f"Web sitesi · {CLIENT}")
    await chat.press("Siteyi bağla")
    assert "web adresi değil" in texts(await chat.say("iki kelime"))
    assert "kullanıcı adını" in texts(await chat.say("ornek.com"))


async def test_a_delivered_article_becomes_one_draft_post_however_often_pressed(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job = await delivered(h, chat, upstream)
    buttons = delivered_buttons(h)
    assert [b.label for b in buttons] == ["Tekrar sipariş", "Başka ton", "WordPress'e taslak"]
    publish = buttons[-1]

    first = texts(await chat.send(Press(publish.data, "42")))
    (post,) = wordpress.site.posts.values()
    assert "WordPress'te taslak hazır" in first
    assert f"{wordpress.base_url}/wp-admin/post.php?post={post.id}&action=edit" in first
    assert (post.status, post.slug) == ("draft", "yapay-zeka-ile-icerik-uretimi")
    assert '<!-- wp:list {"ordered":true} -->' in post.content

    racing = [chat.send(Press(publish.data, "42")) for _ in range(2)]
    answers = await asyncio.gather(*racing)
    assert len(wordpress.site.posts) == 1
    assert any("taslak hazır" in texts(answer) for answer in answers)
    record = site_record(h, job)
    assert record is not None
    assert (record.progress, record.done) == (str(post.id), True)
    assert record.lease_until is None

    listing = await chat.say("/makalelerim")
    assert "WordPress'e taslak · 1" in labels(listing)
    again = texts(await chat.press("WordPress'e taslak · 1"))
    assert "taslak hazır" in again
    assert list(wordpress.site.posts) == [post.id]


async def test_an_article_without_a_site_has_no_publish_button(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await client_chat(h)
    await delivered(h, chat, upstream)
    assert [b.label for b in delivered_buttons(h)] == ["Tekrar sipariş", "Başka ton"]


async def test_a_site_form_connects_in_one_step(h: Harness, wordpress: FakeWordPress) -> None:
    chat = await client_chat(h)
    await chat.say("/musteriler")
    client_id = int(chat.find(f"Web sitesi · {CLIENT}")[0].data.split("|")[-1])
    bad = await chat.send(SiteForm(client_id, "iki kelime", "editor", "x"))
    assert "web adresi değil" in texts(bad)
    form = SiteForm(client_id, wordpress.base_url, wordpress.username, wordpress.app_password)
    assert wordpress.app_password not in repr(form)
    assert "Bağlandı: Örnek Blog" in texts(await chat.send(form))
    assert len(stored_sites(h)) == 1
