"""A finished article as files a CMS takes as they are: the Markdown and its HTML."""

from __future__ import annotations

from dataclasses import replace

from markdown_it import MarkdownIt

from bot.core.articles.article import article_document
from bot.core.conversation.screens import Document

__all__ = ["WEB_MARKDOWN", "article_documents", "article_html"]

# Raw HTML and images from the service are left out: the file carries the article's text only.
# Its tables are kept: Slack's chat shows a note pointing to them. A site's post is walked
# with the same parser, so it holds what the file holds.
WEB_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")


def article_html(markdown: str) -> str:
    """The article as HTML: headings, paragraphs, lists, tables and links, no page around them."""
    return str(WEB_MARKDOWN.render(markdown))


def article_documents(title: str, content: str) -> tuple[Document, Document]:
    """The ``.md`` file and beside it the ``.html`` file of the same name."""
    markdown = article_document(title, content)
    stem = markdown.filename.removesuffix(".md")
    html = replace(markdown, filename=f"{stem}.html", content=article_html(content).encode())
    return markdown, html
