"""The fake site's front: the host and plugins in front of WordPress (the header stripped,
REST blocked, a firewall, https only), Basic logins with application passwords, XML-RPC."""

from __future__ import annotations

import asyncio
import base64
import binascii
import xmlrpc.client

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.fake_wordpress.rest import answer_rest, wp_error
from tests.fake_wordpress.site import Site, User

__all__ = ["create_app"]

_PAGE = "<!doctype html><html><body><h1>{}</h1></body></html>"


def _basic(request: Request) -> tuple[str, str] | None:
    header = request.headers.get("authorization", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        username, _, password = base64.b64decode(encoded).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return username, password


def _login(site: Site, request: Request) -> tuple[User | None, Response | None]:
    """The user the request logs in as; a wrong login makes it anonymous (WordPress 6.1 and
    later), or refused by its code where a plugin reads the user early."""
    given = None if site.mode in ("strip_authorization", "no_app_passwords") else _basic(request)
    if given is None:
        return None, None
    user = site.users.get(given[0])
    if user is not None and user.takes(given[1]):
        return user, None
    if site.mode != "early_user_check":
        return None, None
    if user is None:
        return None, wp_error(401, "invalid_username", "Bilinmeyen kullanıcı adı.")
    return None, wp_error(401, "incorrect_password", "Parola yanlış.")


def _xmlrpc_answer(site: Site, body: bytes) -> Response:
    """``wp.getUsersBlogs``: the user's blogs, or fault 403; fault 405 where XML-RPC is off."""
    params, method = xmlrpc.client.loads(body.decode())
    if site.xmlrpc_off:
        answer = xmlrpc.client.dumps(xmlrpc.client.Fault(405, "XML-RPC hizmetleri kapalı."))
    elif method != "wp.getUsersBlogs" or len(params) != 2:
        answer = xmlrpc.client.dumps(xmlrpc.client.Fault(-32601, "server error"))
    else:
        user = site.users.get(str(params[0]))
        if site.mode == "no_app_passwords" or user is None or not user.takes(str(params[1])):
            answer = xmlrpc.client.dumps(
                xmlrpc.client.Fault(403, "Kullanıcı adı ya da parola yanlış.")
            )
        else:
            blog = {"isAdmin": False, "url": f"{site.home}/", "blogid": "1", "blogName": site.name}
            answer = xmlrpc.client.dumps(([blog],), methodresponse=True)
    return Response(answer, media_type="text/xml")


def _rest_route(site: Site, request: Request) -> str | None:
    """The REST route asked for, or None when the request is for a page of the site."""
    path = request.url.path
    if path == "/wp-json" or path.startswith("/wp-json/"):
        return None if site.mode == "plain_links" else path.removeprefix("/wp-json") or "/"
    if path == "/" and "rest_route" in request.query_params:
        return request.query_params["rest_route"]
    return None


def create_app(site: Site, released: asyncio.Event) -> Starlette:
    """The site's app; a write whose answer is to be lost waits for ``released``."""

    async def handle(request: Request) -> Response:
        if site.mode == "https_only":
            return RedirectResponse(str(request.url.replace(scheme="https")), 301)
        if site.faults:
            return HTMLResponse(_PAGE.format("Service Unavailable"), site.faults.pop(0))
        if request.url.path == "/xmlrpc.php" and request.method == "POST":
            return _xmlrpc_answer(site, await request.body())
        route = _rest_route(site, request)
        if route is None:
            return HTMLResponse(_PAGE.format("Sayfa bulunamadı"), 404)
        if site.mode == "firewall":
            return HTMLResponse(_PAGE.format("Access denied"), 403)
        if site.mode == "block_rest":
            return wp_error(401, "rest_authentication_error", "REST API yalnızca üyelere açık.")
        user, refused = _login(site, request)
        if refused is not None:
            return refused
        answer = await answer_rest(site, request, route, user)
        if request.method == "POST" and answer.status_code < 300 and site.lost_answers:
            site.lost_answers -= 1
            await released.wait()
        return answer

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return Starlette(routes=[Route("/{path:path}", handle, methods=methods)])
