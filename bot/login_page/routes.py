"""``/giris/<token>``: the form of a one-time login link (GET), and its login (POST).

A form counts only with its CSRF token twice, in the form and in a SameSite=Strict cookie
set with the form: a page elsewhere can post neither. Every answer is kept out of caches,
frames and referrers, since its address is the link.
"""

from __future__ import annotations

import hmac
from http import HTTPStatus
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from bot.bodies import capped_body
from bot.core.login_links import LINK_PATH, LinkPage, LoginLinks, PageKind
from bot.login_page.render import CONTENT_SECURITY_POLICY, render

__all__ = ["CSRF_COOKIE", "MAX_FORM_BYTES", "login_routes"]

CSRF_COOKIE = "giris_csrf"
# An e-mail and a password, encoded, are far below this.
MAX_FORM_BYTES = 8 * 1024
_FIELDS = ("csrf", "email", "password")
_STATUS = {
    PageKind.DONE: HTTPStatus.OK,
    PageKind.USED: HTTPStatus.GONE,
    PageKind.EXPIRED: HTTPStatus.GONE,
    PageKind.FORBIDDEN: HTTPStatus.FORBIDDEN,
}
_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}


def login_routes(links: LoginLinks, *, secure_cookie: bool) -> list[BaseRoute]:
    """The page's routes; ``secure_cookie`` where the page is served over HTTPS."""

    def answer(request: Request, token: str, page: LinkPage) -> Response:
        csrf = links.csrf(token) if page.kind is PageKind.FORM else ""
        if page.kind is PageKind.FORM:
            status = HTTPStatus.BAD_REQUEST if page.error else HTTPStatus.OK
        else:
            status = _STATUS[page.kind]
        response = HTMLResponse(render(page, csrf), status_code=status, headers=_HEADERS)
        if csrf:
            response.set_cookie(
                CSRF_COOKIE,
                csrf,
                max_age=int(links.lifetime.total_seconds()),
                path=request.url.path,
                secure=secure_cookie,
                httponly=True,
                samesite="strict",
            )
        return response

    async def show(request: Request) -> Response:
        token = request.path_params["token"]
        return answer(request, token, await links.page(token, _language_hint(request)))

    async def submit(request: Request) -> Response:
        token = request.path_params["token"]
        body = await capped_body(request, MAX_FORM_BYTES)
        if body is None:
            return Response(status_code=HTTPStatus.REQUEST_ENTITY_TOO_LARGE, headers=_HEADERS)
        try:
            fields = parse_qs(body.decode(errors="replace"), max_num_fields=len(_FIELDS) + 2)
        except ValueError:
            return Response(status_code=HTTPStatus.BAD_REQUEST, headers=_HEADERS)
        csrf, email, password = (fields.get(name, [""])[0] for name in _FIELDS)
        cookie = request.cookies.get(CSRF_COOKIE, "")
        # The form's token counts only when the cookie carries the same.
        doubled = hmac.compare_digest(csrf.encode(), cookie.encode())
        page = await links.submit(
            token,
            csrf=csrf if doubled else "",
            email=email,
            password=password,
            language_hint=_language_hint(request),
        )
        return answer(request, token, page)

    path = LINK_PATH + "{token}"
    return [Route(path, show, methods=["GET"]), Route(path, submit, methods=["POST"])]


def _language_hint(request: Request) -> str:
    """The browser's first language, for a page of a link that names no user."""
    return request.headers.get("accept-language", "")[:2]
