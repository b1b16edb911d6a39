"""The platforms' markups: styles marked, and text from users never taken for markup."""

from __future__ import annotations

from bot.core.conversation.richtext import BulletList, CodeBlock, Heading, Span, paragraph
from bot.core.conversation.screens import Screen
from bot.slack.render import to_blocks
from bot.telegram.render import to_html, visible_length

SCREEN = Screen(
    (
        Heading("Başlık <b> & </b>"),
        paragraph("Düz ", Span("kalın", bold=True), " ", Span("eğik", italic=True), " <!here>"),
        BulletList(((Span("madde"),), (Span("x<y", code=True),))),
        CodeBlock("a < b"),
    )
)


def test_telegram_html_marks_styles_and_escapes_text() -> None:
    assert to_html(SCREEN) == (
        "<b>Başlık &lt;b&gt; &amp; &lt;/b&gt;</b>\n\n"
        "Düz <b>kalın</b> <i>eğik</i> &lt;!here&gt;\n\n"
        "• madde\n• <code>x&lt;y</code>\n\n"
        "<pre>a &lt; b</pre>"
    )


def test_telegram_counts_what_the_user_sees_in_utf16_units() -> None:
    assert visible_length("<b>a &amp; b</b>") == 5
    assert visible_length("😀") == 2


def test_slack_mrkdwn_marks_styles_and_never_pings() -> None:
    texts = [block["text"]["text"] for block in to_blocks(SCREEN)]
    assert texts == [
        "*Başlık &lt;b&gt; &amp; &lt;/b&gt;*",
        "Düz *kalın* _eğik_ &lt;!here&gt;",
        "• madde\n• `x&lt;y`",
        "```\na &lt; b\n```",
    ]
