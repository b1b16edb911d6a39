"""Finding and sharing articles on Telegram: inline mode in any chat, its deep link, and
/makalelerim with a word, through the real bot against the fake Bot API and the sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.fake_telegram.records import JSON
from tests.e2e.service_articles import listings, written
from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig

pytestmark = pytest.mark.e2e

GROUP = -1009876543210
DEMO, AZ = "demo@example.com", "az@example.com"
TITLES = (
    "Bulut bilişimin kısa tarihi",
    "İstanbul'da bulut altyapısı",
    "Yapay zekâ ile içerik üretimi",
    "ISPARTA gülleri ve ihracat",
)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        running.telegram.inline_mode = True
        yield running


async def shown(rig: Rig, user: int, query: str, offset: str = "") -> JSON:
    """What the user sees after typing ``@bot query``."""
    query_id = rig.telegram.user_queries_inline(user, query, offset=offset)
    await rig.telegram.wait_for(lambda: rig.telegram.inline_answer(query_id) is not None)
    answer = rig.telegram.inline_answer(query_id)
    assert answer is not None
    return answer


def titles(answer: JSON) -> list[str]:
    return [result["title"] for result in answer["results"]]


async def test_inline_lists_own_articles_newest_first_and_narrows_them_the_turkish_way(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    written(rig.sandbox, DEMO, TITLES)
    calls = listings(rig.sandbox)
    everything = await shown(rig, ALICE, "")
    assert titles(everything) == list(reversed(TITLES))
    assert everything["is_personal"] is True
    assert 0 < everything["cache_time"] <= 10
    first: dict[str, Any] = everything["results"][0]
    assert "kelime · " in first["description"], first["description"]
    assert first["input_message_content"]["message_text"].startswith(f"<b>{TITLES[-1]}</b>")
    (button,) = first["reply_markup"]["inline_keyboard"][0]
    assert button["text"] == "Tamamını oku"
    assert button["url"].startswith(f"https://t.me/{rig.telegram.bot_username}?start=m_")
    assert titles(await shown(rig, ALICE, "BULUT")) == [TITLES[1], TITLES[0]]
    # İ folds to i and I to ı, whichever way the title or the word is written.
    assert titles(await shown(rig, ALICE, "istanbul")) == [TITLES[1]]
    assert titles(await shown(rig, ALICE, "ısparta")) == [TITLES[3]]
    assert titles(await shown(rig, ALICE, "İÇERİK")) == [TITLES[2]]
    assert titles(await shown(rig, ALICE, "yok böyle bir şey")) == []
    assert listings(rig.sandbox) - calls <= 1, "one own-articles call, kept for a few seconds"


async def test_inline_results_are_paged_with_next_offset_at_one_service_call(rig: Rig) -> None:
    await rig.log_in(ALICE)
    many = [f"Sayfalı makale numarası {n:02d}" for n in range(1, 26)]
    written(rig.sandbox, DEMO, many)
    calls = listings(rig.sandbox)
    first = await shown(rig, ALICE, "sayfalı")
    assert len(first["results"]) == 20
    assert first["next_offset"] == "20"
    rest = await shown(rig, ALICE, "sayfalı", offset=first["next_offset"])
    assert titles(rest) == list(reversed(many))[20:]
    assert rest["next_offset"] == ""
    assert listings(rig.sandbox) - calls == 1
    ids = [r["id"] for r in first["results"] + rest["results"]]
    assert len(set(ids)) == 25


async def test_a_user_not_logged_in_is_offered_the_login_and_it_starts_in_the_private_chat(
    rig: Rig,
) -> None:
    helped = await rig.says(BOB, "/yardim", "giriş yapmadınız")
    assert "botun kullanıcı adını (@ ile) yazın" in (helped.text or "")
    answer = await shown(rig, BOB, "")
    assert answer["results"] == []
    assert answer["button"] == {"text": "Giriş yap", "start_parameter": "giris"}
    said = rig.telegram.user_says(BOB, f"/start {answer['button']['start_parameter']}")
    await rig.until(BOB, "E-posta adresinizi yazın", since=said["message_id"])


async def test_nobody_is_shown_anyone_elses_articles(rig: Rig) -> None:
    await rig.log_in(ALICE)
    await rig.log_in(BOB, AZ, "Az123456")
    written(rig.sandbox, DEMO, ["Ayşe'nin bulut makalesi burada"])
    written(rig.sandbox, AZ, ["Bora'nın bulut makalesi burada"])
    assert titles(await shown(rig, ALICE, "bulut")) == ["Ayşe'nin bulut makalesi burada"]
    # The same query right after: Telegram may not show Alice's cached answer to Bob.
    assert titles(await shown(rig, BOB, "bulut")) == ["Bora'nın bulut makalesi burada"]
    assert titles(await shown(rig, BOB, "")) == ["Bora'nın bulut makalesi burada"]


async def test_a_chosen_article_is_posted_and_its_link_sends_the_whole_of_it_to_anyone(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    (job,) = written(rig.sandbox, DEMO, ["Bulut bilişimin kısa tarihi"])
    assert job.content is not None
    query_id = rig.telegram.user_queries_inline(ALICE, "bulut")
    await rig.telegram.wait_for(lambda: rig.telegram.inline_answer(query_id) is not None)
    answer = rig.telegram.inline_answer(query_id)
    assert answer is not None
    result_id = answer["results"][0]["id"]
    posted = rig.telegram.user_chooses_inline(ALICE, query_id, result_id, chat_id=GROUP)
    assert posted.text is not None
    assert posted.text.startswith("Bulut bilişimin kısa tarihi\n\n")
    opening = posted.text.split("\n\n")[1].rstrip(" …")
    assert opening[:80] in job.content
    url = posted.buttons[0][0]["url"]
    # Bob has never used the bot and has no account: the link is enough to read it.
    said = rig.telegram.user_opens_link(BOB, url)
    last_paragraph = job.content.strip().split("\n\n")[-1]
    await rig.telegram.wait_for(
        lambda: sum(m.document is not None for m in rig.bot_messages(BOB)) == 2, timeout=15
    )
    texts = "\n".join(m.text or "" for m in rig.bot_messages(BOB))
    assert last_paragraph.split()[-1] in texts
    names = [m.document.file_name for m in rig.bot_messages(BOB) if m.document]
    assert names == ["bulut-bilisimin-kisa-tarihi.md", "bulut-bilisimin-kisa-tarihi.html"]
    assert all(m.message_id > said["message_id"] for m in rig.bot_messages(BOB))
    assert not any("Tekrar sipariş" in str(m.markup) for m in rig.bot_messages(BOB))
    forged = rig.telegram.user_says(BOB, f"/start m_{'A' * 16}")
    await rig.until(BOB, "Bu bağlantı geçerli değil", since=forged["message_id"])


async def test_makalelerim_with_a_word_finds_articles_and_says_what_it_searched(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    written(rig.sandbox, DEMO, TITLES)
    found = await rig.says(ALICE, "/makalelerim BULUT", "için 2 makale bulundu")
    assert found.text is not None
    assert "İstanbul'da bulut altyapısı" in found.text
    assert "Yapay" not in found.text
    labels = [button["text"] for row in found.buttons for button in row]
    assert labels[:2] == ["Aç 1", "Aç 2"]
    assert {"Tekrar sipariş · 1", "Başka ton · 2"} <= set(labels)
    assert "en yeni" not in found.text, "the whole list was searched"
    rig.telegram.user_presses(ALICE, found.message_id, found.callback_data("Aç 1"))
    await rig.telegram.wait_for(
        lambda: any(
            m.document is not None and m.document.file_name.startswith("istanbul")
            for m in rig.bot_messages(ALICE)
        )
    )
    nothing = await rig.says(ALICE, "/makalelerim kuantum", "“kuantum” için makale bulunamadı")
    assert nothing.text is not None
    assert "/makalelerim" in nothing.text


async def test_a_search_past_the_newest_hundred_says_it_covered_only_those(rig: Rig) -> None:
    await rig.log_in(ALICE)
    written(rig.sandbox, DEMO, [f"Eski bir makale, sıra {n:03d}" for n in range(101)])
    found = await rig.says(ALICE, "/makalelerim sıra", "makale bulundu")
    assert found.text is not None
    assert "“sıra” için 100 makale bulundu" in found.text
    assert "yalnızca en yeni 100 makalenizi kapsadı" in found.text
    assert "İlk 10 tanesi gösteriliyor" in found.text


async def test_a_user_outside_the_allow_list_is_shown_nothing_and_costs_no_call(
    tmp_path: Path,
) -> None:
    async with telegram_rig(tmp_path, allowed_telegram_users=str(ALICE)) as rig:
        rig.telegram.inline_mode = True
        requests = len(rig.sandbox.state.request_log)
        answer = await shown(rig, BOB, "")
        assert answer["results"] == []
        assert answer["button"] is None
        assert len(rig.sandbox.state.request_log) == requests
