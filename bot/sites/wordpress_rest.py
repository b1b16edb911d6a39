"""Where a WordPress site's REST API answers, and how to read what it says.

A site with pretty links serves the API under ``/wp-json/``; one with plain links only
through ``?rest_route=``. The index (``/``) tells the site's name, where WordPress itself is
(for ``xmlrpc.php`` and the editor) and whether it offers application passwords.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from bot.core.publishing.errors import (
    AppPasswordsOff,
    NotWordPress,
    RestBlocked,
    SiteError,
    SiteUnreachable,
    UnexpectedAnswer,
    UnknownUsername,
    WrongPassword,
)

__all__ = ["RestRoot", "error_code", "json_body", "known_refusal", "read_index", "unexpected"]

# WordPress's codes that name the cause themselves. A permission's refusal (rest_cannot_create,
# rest_forbidden_context, ...) says by its status whose it is: 401 nobody logged in, 403 a user
# without the right.
_REFUSALS: dict[str, type[SiteError]] = {
    "invalid_username": UnknownUsername,
    "invalid_email": UnknownUsername,
    "incorrect_password": WrongPassword,
    "application_passwords_disabled": AppPasswordsOff,
    "application_passwords_disabled_for_user": AppPasswordsOff,
    "rest_authentication_error": RestBlocked,
    "rest_no_route": RestBlocked,
}


@dataclass(frozen=True, slots=True)
class RestRoot:
    """One site's REST API as found: its index's address and what the index said."""

    index_url: str
    pretty: bool
    name: str
    wordpress_url: str
    app_passwords: bool

    def route(self, route: str, params: dict[str, str] | None = None) -> httpx.URL:
        """The address of ``route`` (``/wp/v2/posts``) with its query."""
        query = dict(params or {})
        if self.pretty:
            return httpx.URL(self.index_url.rstrip("/") + route, params=query)
        return httpx.URL(self.index_url, params={"rest_route": route, **query})


def json_body(response: httpx.Response) -> Any:
    """The answer's JSON; None when it is not JSON (a firewall's page, a theme's 404)."""
    try:
        return json.loads(response.content)
    except (ValueError, RecursionError):
        return None


def error_code(response: httpx.Response) -> str:
    """WordPress's ``code`` of an error answer; empty when it has none."""
    body = json_body(response)
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else ""


def known_refusal(response: httpx.Response) -> SiteError | None:
    """The diagnosis a refusal names by its code, or a firewall's page; None otherwise."""
    code = error_code(response)
    kind = _REFUSALS.get(code)
    if kind is not None:
        return kind(f"WordPress answered {code}", code=code, status=response.status_code)
    if response.status_code in (401, 403) and json_body(response) is None:
        return RestBlocked("a page, not WordPress's JSON, refused", status=response.status_code)
    return None


def read_index(response: httpx.Response, pretty: bool) -> RestRoot:
    """The REST index's facts, or why the answer is no WordPress index."""
    if response.status_code >= 500:
        raise SiteUnreachable("the site failed", status=response.status_code)
    if response.status_code in (401, 403):
        refusal = known_refusal(response)
        raise refusal or RestBlocked("the REST index is refused", status=response.status_code)
    body = json_body(response)
    if response.status_code != 200 or not isinstance(body, dict) or "namespaces" not in body:
        raise NotWordPress("no WordPress REST index here", status=response.status_code)
    if "wp/v2" not in (body.get("namespaces") or ()):
        raise RestBlocked("the index lists no wp/v2 routes", status=response.status_code)
    auth = body.get("authentication")
    wordpress_url = str(body.get("url") or _origin(response.url)).rstrip("/")
    return RestRoot(
        index_url=str(response.url.copy_with(query=None)),
        pretty=pretty,
        name=str(body.get("name") or urlsplit(wordpress_url).netloc),
        wordpress_url=wordpress_url,
        app_passwords=isinstance(auth, dict) and "application-passwords" in auth,
    )


def _origin(url: httpx.URL) -> str:
    return f"{url.scheme}://{url.netloc.decode()}"


def unexpected(what: str, response: httpx.Response) -> UnexpectedAnswer:
    """An answer that is not the JSON the call expects."""
    return UnexpectedAnswer(what, code=error_code(response), status=response.status_code)
