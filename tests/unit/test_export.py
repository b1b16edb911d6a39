"""The files a CMS takes as they are: the Markdown and its HTML, named after the title."""

from __future__ import annotations

from bot.core.articles.export import article_documents

MARKDOWN = """# Yapay Zekâ ve Eğitim

Giriş paragrafı, **kalın** ve [bir bağlantı](https://example.com/kaynak).

## Adımlar

1. Birinci adım
2. İkinci adım

- madde

<script>alert(1)</script>
![resim](https://example.com/resim.png)
"""


def test_the_html_file_sits_beside_the_markdown_under_a_transliterated_name() -> None:
    markdown, html = article_documents("Yapay Zekâ ve Eğitim", MARKDOWN)

    assert (markdown.filename, html.filename) == (
        "yapay-zeka-ve-egitim.md",
        "yapay-zeka-ve-egitim.html",
    )
    assert markdown.content == MARKDOWN.encode()


def test_the_html_holds_headings_paragraphs_lists_and_links_and_nothing_raw() -> None:
    _, html = article_documents("Yapay Zekâ ve Eğitim", MARKDOWN)
    text = html.content.decode()

    assert "<h1>Yapay Zekâ ve Eğitim</h1>" in text
    assert "<h2>Adımlar</h2>" in text
    assert '<a href="https://example.com/kaynak">bir bağlantı</a>' in text
    assert "<ol>\n<li>Birinci adım</li>" in text
    assert "<ul>\n<li>madde</li>" in text
    assert "<script>" not in text, "raw HTML from the service is escaped"
    assert "<img" not in text
    assert "<html" not in text, "no page around the article"
