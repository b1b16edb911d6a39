"""An article as a WordPress post: Gutenberg blocks, its slug and its excerpt."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.publishing import PostStatus, post_draft
from bot.core.publishing.blocks import block_attributes, excerpt, gutenberg
from bot.core.publishing.site import site_address

TITLE = "Yapay zekâ ile içerik üretimi"
# The README's example article (its "WordPress" section shows these blocks).
EXAMPLE = f"""# {TITLE}

Yapay zekâ, **içerik üretimini** hızlandırır; *ama* editörün yerini almaz.

## Nasıl başlanır?

1. Hedef kitleyi belirleyin.
2. Taslağı [kaynaklar](https://example.com/kaynaklar) ile zenginleştirin.
   - Her iddiaya bir kaynak.

| Yöntem | Maliyet | Süre |
|---|---|---|
| İçerik pazarlaması | Orta | 3-6 ay |
| SEO çalışması | Düşük | 6-12 ay |
"""
EXAMPLE_BLOCKS = """\
<!-- wp:paragraph -->
<p>Yapay zekâ, <strong>içerik üretimini</strong> hızlandırır; <em>ama</em> editörün yerini \
almaz.</p>
<!-- /wp:paragraph -->

<!-- wp:heading {"level":2} -->
<h2>Nasıl başlanır?</h2>
<!-- /wp:heading -->

<!-- wp:list {"ordered":true} -->
<ol><!-- wp:list-item -->
<li>Hedef kitleyi belirleyin.</li>
<!-- /wp:list-item --><!-- wp:list-item -->
<li>Taslağı <a href="https://example.com/kaynaklar">kaynaklar</a> ile zenginleştirin.\
<!-- wp:list -->
<ul><!-- wp:list-item -->
<li>Her iddiaya bir kaynak.</li>
<!-- /wp:list-item --></ul>
<!-- /wp:list --></li>
<!-- /wp:list-item --></ol>
<!-- /wp:list -->

<!-- wp:table -->
<figure class="wp-block-table"><table><thead><tr><th>Yöntem</th><th>Maliyet</th><th>Süre</th>\
</tr></thead><tbody><tr><td>İçerik pazarlaması</td><td>Orta</td><td>3-6 ay</td></tr><tr>\
<td>SEO çalışması</td><td>Düşük</td><td>6-12 ay</td></tr></tbody></table></figure>
<!-- /wp:table -->"""


def test_the_example_article_as_blocks() -> None:
    assert gutenberg(EXAMPLE) == EXAMPLE_BLOCKS


def test_the_example_article_as_a_draft() -> None:
    draft = post_draft(TITLE, EXAMPLE)
    assert draft.slug == "yapay-zeka-ile-icerik-uretimi"
    assert draft.excerpt == "Yapay zekâ, içerik üretimini hızlandırır; ama editörün yerini almaz."
    assert (draft.status, draft.date_gmt, draft.title) == (PostStatus.DRAFT, None, TITLE)


def test_a_scheduled_post_is_future_at_its_time() -> None:
    at = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
    draft = post_draft(TITLE, EXAMPLE, scheduled_at=at)
    assert (draft.status, draft.date_gmt) == (PostStatus.FUTURE, at)


def test_a_numbered_list_keeps_its_start_and_other_blocks_their_kind() -> None:
    markdown = "3. üç\n4. dört\n\n> alıntı\n\n```\na < b -- c\n```\n\n---\n\n### Alt başlık\n"
    assert gutenberg(markdown) == (
        '<!-- wp:list {"ordered":true,"start":3} -->\n<ol start="3"><!-- wp:list-item -->\n'
        "<li>üç</li>\n<!-- /wp:list-item --><!-- wp:list-item -->\n<li>dört</li>\n"
        "<!-- /wp:list-item --></ol>\n<!-- /wp:list -->\n\n"
        '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><!-- wp:paragraph -->\n'
        "<p>alıntı</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->\n\n"
        '<!-- wp:code -->\n<pre class="wp-block-code"><code>a &lt; b -- c</code></pre>\n'
        "<!-- /wp:code -->\n\n"
        '<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n'
        "<!-- /wp:separator -->\n\n"
        '<!-- wp:heading {"level":3} -->\n<h3>Alt başlık</h3>\n<!-- /wp:heading -->'
    )


def test_a_loose_item_keeps_each_paragraph() -> None:
    assert "<li>bir<br>iki</li>" in gutenberg("- bir\n\n  iki\n- üç\n")


def test_a_comment_never_holds_a_double_dash() -> None:
    written = block_attributes({"className": 'a--b <c> & "d"'})
    assert not {"--", "<", ">"} & {written[i : i + n] for n in (1, 2) for i in range(len(written))}
    assert written == '{"className":"a\\u002d\\u002db \\u003cc\\u003e \\u0026 \\u0022d\\u0022"}'


def test_no_paragraph_no_excerpt() -> None:
    assert excerpt("# Başlık\n\n- madde\n") == ""


def test_a_title_without_letters_still_has_a_slug() -> None:
    assert post_draft("!!!", "metin").slug == "makale"


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("ornek.com", "https://ornek.com"),
        (" http://127.0.0.1:8080/ ", "http://127.0.0.1:8080"),
        ("https://ornek.com/blog/wp-admin/post.php?post=1", "https://ornek.com/blog"),
        ("https://ornek.com/wp-login.php", "https://ornek.com"),
        ("iki kelime", None),
        ("ftp://ornek.com", None),
        ("ali@ornek.com", None),
    ],
)
def test_a_site_address_as_typed(typed: str, address: str | None) -> None:
    assert site_address(typed) == address
