"""The .zip of finished articles: both files of each, repeated titles kept apart."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime

from bot.core.articles.archive import articles_zip

MADE = datetime(2026, 11, 23, 12, tzinfo=UTC)


def test_each_article_brings_its_markdown_and_html_and_a_repeated_title_is_numbered() -> None:
    articles = [
        ("Yapay Zekâ", "# Yapay Zekâ\n\nMetin."),
        ("Bulut", "# Bulut\n"),
        ("Yapay Zekâ", "Öteki."),
    ]

    archive = zipfile.ZipFile(io.BytesIO(articles_zip(articles, MADE)))

    assert archive.namelist() == [
        "yapay-zeka.md",
        "yapay-zeka.html",
        "bulut.md",
        "bulut.html",
        "yapay-zeka-2.md",
        "yapay-zeka-2.html",
    ]
    assert archive.read("yapay-zeka-2.md") == "Öteki.".encode()
    assert b"<h1>Yapay Zek" in archive.read("yapay-zeka.html")
    assert articles_zip(articles, MADE) == articles_zip(articles, MADE), "the same bytes each time"


def test_a_title_that_reads_like_a_numbered_repeat_keeps_its_own_file() -> None:
    articles = [("Bulut", "Bir."), ("Bulut", "İki."), ("Bulut 2", "Üç.")]

    archive = zipfile.ZipFile(io.BytesIO(articles_zip(articles, MADE)))

    names = archive.namelist()
    assert len(names) == len(set(names)) == 6
    assert sorted(archive.read(name) for name in names if name.endswith(".md")) == sorted(
        text.encode() for _, text in articles
    )


def test_a_title_that_windows_keeps_for_a_device_gets_a_name_windows_can_create() -> None:
    titles = ["con!!!!!!!!!!", "NUL", "Com1", "lpt9", "aux", "prn", "Console"]
    articles = [(title, "Metin.") for title in titles]

    names = zipfile.ZipFile(io.BytesIO(articles_zip(articles, MADE))).namelist()

    stems = [name.removesuffix(".md") for name in names if name.endswith(".md")]
    assert stems == [
        "con-makale",
        "nul-makale",
        "com1-makale",
        "lpt9-makale",
        "aux-makale",
        "prn-makale",
        "console",
    ]
