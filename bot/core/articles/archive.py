"""Finished articles in one ``.zip``: each one's ``.md`` and ``.html`` file, as a CMS takes them."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from datetime import datetime

from bot.core.articles.export import article_documents

__all__ = ["MAX_ARCHIVE_BYTES", "articles_zip"]

# Telegram takes files from bots up to 50 MB; Slack more, so this is the one limit.
MAX_ARCHIVE_BYTES = 50 * 1024 * 1024


def articles_zip(articles: Sequence[tuple[str, str]], made_at: datetime) -> bytes:
    """A zip of every (title, Markdown) article's two files, in the order given.

    Titles that repeat get ``-2``, ``-3``: no file overwrites another when unpacked.
    """
    taken: set[str] = set()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for title, content in articles:
            markdown, html = article_documents(title, content)
            named = stem = markdown.filename.removesuffix(".md")
            # Another title may read like a numbered repeat ("Bulut 2" is bulut-2).
            number = 1
            while stem in taken:
                number += 1
                stem = f"{named}-{number}"
            taken.add(stem)
            for document, suffix in ((markdown, ".md"), (html, ".html")):
                # A fixed time in every entry: the same articles make the same archive.
                entry = zipfile.ZipInfo(f"{stem}{suffix}", date_time=made_at.timetuple()[:6])
                entry.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(entry, document.content)
    return buffer.getvalue()
