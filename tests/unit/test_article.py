"""Articles as messages: Markdown read as blocks, split to fit, nothing lost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.article import article_blocks, article_document, split_into_screens
from bot.core.richtext import BulletList, Heading, Paragraph, plain_text
from bot.core.screens import Screen

MARKDOWN = """# Yapay Zekâ ve Eğitim

Giriş **paragrafı** burada. İkinci *cümle*.

## Neden önemli?

- birinci madde
- ikinci madde

<p>HTML olarak gelen paragraf</p>
"""


def under(limit: int):
    return lambda screen: len(screen.text) <= limit


def test_markdown_becomes_headings_paragraphs_and_lists() -> None:
    blocks = article_blocks(MARKDOWN)
    assert [type(b) for b in blocks] == [Heading, Paragraph, Heading, BulletList, Paragraph]
    assert blocks[0] == Heading("Yapay Zekâ ve Eğitim", 1)
    assert any(span.bold for span in blocks[1].spans)
    assert blocks[4].spans[0].text == "HTML olarak gelen paragraf"


def test_an_article_without_a_title_heading_gets_one() -> None:
    assert article_blocks("Sadece metin.", "Başlık")[0] == Heading("Başlık", 1)
    assert article_blocks(MARKDOWN, "Başlık")[0] == Heading("Yapay Zekâ ve Eğitim", 1)


def test_split_keeps_paragraphs_whole_when_they_fit() -> None:
    blocks = article_blocks(MARKDOWN) * 30
    screens = split_into_screens(blocks, under(300))
    assert all(len(s.text) <= 300 for s in screens)
    assert [b for s in screens for b in s.blocks] == list(blocks)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.text(alphabet="abc çğ.!?", min_size=1, max_size=900), min_size=1, max_size=12),
    st.integers(min_value=40, max_value=400),
)
def test_split_never_exceeds_the_limit_nor_loses_words(paragraphs: list[str], limit: int) -> None:
    source = "\n\n".join(p.replace("\n", " ") for p in paragraphs)
    blocks = article_blocks(source)
    screens = split_into_screens(blocks, under(limit))
    assert all(len(s.text) <= limit for s in screens)
    assert " ".join(plain_text(s.blocks) for s in screens).split() == plain_text(blocks).split()


def test_the_file_is_named_after_the_title() -> None:
    document = article_document("İstanbul'da Yapay Zekâ & Eğitim", MARKDOWN)
    assert document.filename == "istanbulda-yapay-zeka-egitim.md"
    assert document.content == MARKDOWN.encode()
    assert split_into_screens((), under(10)) == []
    assert Screen(()).text == ""


def test_a_link_keeps_its_url_in_the_chat_text() -> None:
    blocks = article_blocks("Ayrıntı için [kaynaklar](https://example.com/kaynaklar) sayfası.")

    assert "kaynaklar (https://example.com/kaynaklar) sayfası." in plain_text(blocks)
