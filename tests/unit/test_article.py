"""Articles as messages: Markdown read as blocks, split to fit, nothing lost."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.articles.article import article_blocks, article_document, split_into_screens
from bot.core.conversation.richtext import (
    Block,
    BulletList,
    CodeBlock,
    Heading,
    NumberedList,
    Paragraph,
    Span,
    Table,
    plain_text,
    table_grid,
)
from bot.core.conversation.screens import Screen
from bot.shell.render import render_screen

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


def letters(text: str) -> str:
    return "".join(text.split())


@given(
    st.lists(
        st.one_of(
            st.builds(Heading, st.text(min_size=1, max_size=600), st.integers(1, 3)),
            st.builds(
                lambda text: BulletList(((Span(text, bold=True),),)),
                st.text(min_size=1, max_size=600),
            ),
            st.builds(lambda text: Paragraph((Span(text),)), st.text(min_size=1, max_size=600)),
        ),
        min_size=1,
        max_size=6,
    ),
    st.integers(min_value=10, max_value=120),
)
def test_any_block_of_any_length_is_split_to_fit_and_nothing_is_lost(
    blocks: list[Block], limit: int
) -> None:
    screens = split_into_screens(blocks, under(limit))

    assert all(len(s.text) <= limit for s in screens)
    assert letters("".join(plain_text(s.blocks) for s in screens)) == letters(plain_text(blocks))


def test_an_over_long_heading_or_list_item_is_split_like_a_paragraph() -> None:
    words = " ".join(f"kelime{number}" for number in range(400))
    blocks = (Heading(words, 1), BulletList(((Span(words),), (Span("kısa"),))))

    screens = split_into_screens(blocks, under(4096 // 4))

    assert len(screens) > 2
    assert plain_text(blocks).split() == " ".join(plain_text(s.blocks) for s in screens).split()


@pytest.mark.parametrize(
    "block",
    [
        Paragraph((Span("x"),)),
        Heading("x", 1),
        BulletList(((Span("x"),),)),
        NumberedList(((Span("x"),),), 1),
        CodeBlock("x"),
        Table(("x",), (("y",),), ""),
    ],
    ids=lambda block: type(block).__name__,
)
def test_a_block_that_fits_nowhere_still_goes_out(block: Block) -> None:
    assert [s.blocks for s in split_into_screens((block,), under(0))] == [(block,)]


def test_the_file_is_named_after_the_title() -> None:
    document = article_document("İstanbul'da Yapay Zekâ & Eğitim", MARKDOWN)
    assert document.filename == "istanbulda-yapay-zeka-egitim.md"
    assert document.content == MARKDOWN.encode()
    assert split_into_screens((), under(10)) == []
    assert Screen(()).text == ""


def test_a_link_keeps_its_url_in_the_chat_text() -> None:
    blocks = article_blocks("Ayrıntı için [kaynaklar](https://example.com/kaynaklar) sayfası.")

    assert "kaynaklar (https://example.com/kaynaklar) sayfası." in plain_text(blocks)


RICH = """# Başlık

1. Birinci **adım**
2. İkinci adım
3. Üçüncü adım

| Yöntem | Maliyet |
|---|---|
| SEO | Düşük |
| Reklam | Yüksek |
"""


def test_a_numbered_list_keeps_its_numbers_and_a_table_its_cells() -> None:
    _, steps, table = article_blocks(RICH, table_note="Tablo: {columns}")

    assert steps == NumberedList(
        (
            (Span("Birinci "), Span("adım", bold=True)),
            (Span("İkinci adım"),),
            (Span("Üçüncü adım"),),
        )
    )
    assert table == Table(
        ("Yöntem", "Maliyet"), (("SEO", "Düşük"), ("Reklam", "Yüksek")), "Tablo: Yöntem, Maliyet"
    )
    assert "1. Birinci adım\n2. İkinci adım" in plain_text((steps,))
    assert table_grid(table) == (
        "Yöntem | Maliyet\n-------+--------\nSEO    | Düşük\nReklam | Yüksek"
    )


NESTED = """1. Adım bir
   - detay a
   - detay b
2. Adım iki

   Adımın ikinci paragrafı
3. Adım üç
   1. alt bir
   2. alt iki
"""


def test_an_inner_list_and_a_further_paragraph_stay_in_their_item_so_the_numbers_run_on() -> None:
    (steps,) = article_blocks(NESTED)

    assert plain_text((steps,)) == (
        "1. Adım bir\n   ◦ detay a\n   ◦ detay b\n"
        "2. Adım iki\n   Adımın ikinci paragrafı\n"
        "3. Adım üç\n   1. alt bir\n   2. alt iki"
    )
    assert render_screen(Screen((steps,))).plain.splitlines()[:3] == [
        "  1. Adım bir",
        "     ◦ detay a",
        "     ◦ detay b",
    ], "the terminal lines an inner list up under its item's text"
    assert plain_text(article_blocks("1. - iç madde\n   - ikinci\n2. dış\n")) == (
        "1. ◦ iç madde\n   ◦ ikinci\n2. dış"
    ), "an item that opens with an inner list"


def test_a_numbered_list_split_in_two_counts_on() -> None:
    steps = NumberedList(tuple((Span(f"adım {n} " * 20),) for n in range(1, 7)), start=3)

    screens = split_into_screens((steps,), under(400))

    numbers = [b.start for s in screens for b in s.blocks if isinstance(b, NumberedList)]
    assert numbers[0] == 3
    assert len(numbers) > 1
    lines = "\n".join(plain_text(s.blocks) for s in screens)
    assert [line.split(".")[0] for line in lines.splitlines()] == [str(n) for n in range(3, 9)]


def test_bold_and_italic_stay_on_both_sides_of_a_cut_paragraph() -> None:
    styled = Paragraph(
        (Span("Düz başlangıç. "), Span("kalın " * 60, bold=True), Span("eğik " * 60, italic=True))
    )

    screens = split_into_screens((styled,), under(500))

    spans = [
        span for s in screens for b in s.blocks if isinstance(b, Paragraph) for span in b.spans
    ]
    assert len(screens) > 1
    assert all(span.bold for span in spans if "kalın" in span.text)
    assert all(span.italic for span in spans if "eğik" in span.text)
    assert plain_text((styled,)).split() == " ".join(s.text for s in screens).split()


def test_a_long_table_is_split_by_rows_each_part_with_its_header() -> None:
    table = Table(("Ad", "Değer"), tuple((f"satır {n}", str(n)) for n in range(40)))

    screens = split_into_screens((table,), lambda s: len(table_grid(s.blocks[0])) <= 300)

    parts = [b for s in screens for b in s.blocks]
    assert len(parts) > 1
    assert all(isinstance(p, Table) and p.header == ("Ad", "Değer") for p in parts)
    assert [row for p in parts for row in p.rows] == list(table.rows)
