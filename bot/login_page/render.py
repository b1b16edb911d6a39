"""The login page as plain HTML: large inputs for a phone, and nothing that needs JavaScript."""

from __future__ import annotations

import base64
import hashlib
from html import escape

from bot.core.login_links import LinkPage, PageKind

__all__ = ["CONTENT_SECURITY_POLICY", "render"]

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:28rem;margin:0 auto;padding:1.5rem 1rem;"
    "line-height:1.5;color:#111}"
    "h1{font-size:1.4rem}"
    "label{display:block;margin-top:1rem;font-weight:600}"
    "input{box-sizing:border-box;width:100%;font-size:1.15rem;padding:.75rem;margin-top:.25rem}"
    "button{width:100%;font-size:1.15rem;padding:.9rem;margin-top:1.5rem}"
    ".error{color:#a40000;font-weight:600}"
)
_STYLE_HASH = base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
# Nothing but this page's own style: no script, no frame, no other site to post the form to.
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


def render(page: LinkPage, csrf: str) -> str:
    """The page's HTML; ``csrf`` goes into the form, where there is one."""
    words = page.texts.login_page
    messages = {
        PageKind.DONE: words.done,
        PageKind.USED: words.used,
        PageKind.EXPIRED: words.expired,
        PageKind.FORBIDDEN: words.forbidden,
    }
    body = (
        _form(page, csrf) if page.kind is PageKind.FORM else f"<p>{escape(messages[page.kind])}</p>"
    )
    return (
        f'<!doctype html><html lang="{words.language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(words.title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{escape(words.title)}</h1>{body}</body></html>"
    )


def _form(page: LinkPage, csrf: str) -> str:
    words = page.texts.login_page
    error = f'<p class="error" role="alert">{escape(page.error)}</p>' if page.error else ""
    # No action: the form posts back to the link's own address.
    return (
        f"<p>{escape(words.intro)}</p>{error}"
        '<form method="post">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        f'<label for="email">{escape(words.email)}</label>'
        '<input id="email" name="email" type="email" inputmode="email" autocomplete="username"'
        f' required maxlength="254" value="{escape(page.email)}">'
        f'<label for="password">{escape(words.password)}</label>'
        '<input id="password" name="password" type="password" autocomplete="current-password"'
        ' required maxlength="1024">'
        f'<button type="submit">{escape(words.submit)}</button></form>'
    )
