"""The REST API's answers, from the handbook: the index, users/me and posts, with the error
bodies WordPress gives (``{"code", "message", "data": {"status"}}``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.fake_wordpress.site import Post, Site, User

__all__ = ["answer_rest", "wp_error"]

_STATUSES = frozenset({"publish", "future", "draft", "pending", "private"})


def wp_error(status: int, code: str, message: str) -> JSONResponse:
    """An error as ``WP_REST_Server::error_to_response`` writes it."""
    return JSONResponse({"code": code, "message": message, "data": {"status": status}}, status)


def _index(site: Site) -> dict[str, Any]:
    auth: object = []
    if site.mode != "no_app_passwords":
        endpoint = f"{site.home}/wp-admin/authorize-application.php"
        auth = {"application-passwords": {"endpoints": {"authorization": endpoint}}}
    return {
        "name": site.name,
        "description": "",
        "url": site.home,
        "home": site.home,
        "gmt_offset": 3,
        "timezone_string": "Europe/Istanbul",
        "namespaces": ["oembed/1.0", "wp/v2", "wp-site-health/v1"],
        "authentication": auth,
        "routes": {},
    }


def _me(user: User) -> dict[str, Any]:
    """The user in the edit context, which lists the user's capabilities."""
    rights = {"read": True, "edit_posts": _may_edit(user), "publish_posts": _may_edit(user)}
    return {
        "id": user.id,
        "username": user.username,
        "name": user.username,
        "roles": [user.role],
        "capabilities": rights,
    }


def _denied(user: User | None, code: str, message: str) -> JSONResponse:
    """``rest_authorization_required_code()``: 401 to nobody, 403 to a user without the right."""
    return wp_error(401 if user is None else 403, code, message)


def _may_edit(user: User | None) -> bool:
    return user is not None and user.role in ("administrator", "editor", "author")


def _text(value: object) -> str:
    return str(value.get("raw", "")) if isinstance(value, dict) else str(value)


def _apply(site: Site, post: Post, fields: dict[str, Any]) -> JSONResponse | None:
    """Write a request's fields into the post; an invalid one is refused before any is."""
    status = fields.get("status", post.status)
    if status not in _STATUSES:
        return wp_error(400, "rest_invalid_param", "Geçersiz parametre: status")
    for name in ("title", "content", "excerpt", "slug"):
        if name in fields:
            setattr(post, name, _text(fields[name]))
    if "date_gmt" in fields:
        post.date_gmt = datetime.fromisoformat(str(fields["date_gmt"])).replace(tzinfo=UTC)
    # A post scheduled for a time already past is published at once.
    post.status = "publish" if status == "future" and post.date_gmt <= site.now() else status
    return None


async def _write(site: Site, request: Request, user: User | None, post_id: int | None) -> Response:
    post = site.posts.get(post_id) if post_id is not None else None
    if post_id is not None and post is None:
        return wp_error(404, "rest_post_invalid_id", "Geçersiz yazı kimliği.")
    if not _may_edit(user):
        code = "rest_cannot_create" if post is None else "rest_cannot_edit"
        return _denied(user, code, "Bu kullanıcı olarak yazı oluşturma izniniz yok.")
    assert user is not None
    fields = await request.json()
    site.writes_in_flight += 1
    site.most_writes_at_once = max(site.most_writes_at_once, site.writes_in_flight)
    try:
        # wp_insert_post takes a moment; two writes that overlap show here.
        await asyncio.sleep(0.02)
        fresh = post is None
        post = post or site.new_post(user.id)
        refused = _apply(site, post, fields)
        if refused is not None:
            if fresh:
                del site.posts[post.id]
            return refused
    finally:
        site.writes_in_flight -= 1
    return JSONResponse(post.as_json(site.home), 201 if fresh else 200)


def _read(site: Site, request: Request, user: User | None, post_id: int) -> Response:
    post = site.posts.get(post_id)
    if post is None:
        return wp_error(404, "rest_post_invalid_id", "Geçersiz yazı kimliği.")
    if request.query_params.get("context") == "edit" and not _may_edit(user):
        return _denied(user, "rest_forbidden_context", "Bu yazıyı düzenleme izniniz yok.")
    return JSONResponse(post.as_json(site.home))


def _list(site: Site, request: Request, user: User | None) -> Response:
    query = request.query_params
    statuses = set(query.get("status", "publish").split(","))
    if not statuses <= _STATUSES:
        return wp_error(400, "rest_invalid_param", "Geçersiz parametre: status")
    if statuses != {"publish"} and not _may_edit(user):
        return _denied(user, "rest_forbidden_status", "Durum izni yok.")
    if query.get("context") == "edit" and not _may_edit(user):
        return _denied(user, "rest_forbidden_context", "Yazıları düzenleme izniniz yok.")
    slug = query.get("slug")
    found = [
        post.as_json(site.home)
        for post in site.posts.values()
        if post.status in statuses and (slug is None or post.slug == slug)
    ]
    return JSONResponse(found)


async def answer_rest(site: Site, request: Request, route: str, user: User | None) -> Response:
    """The answer to one REST route, as the logged-in user (or nobody)."""
    method = request.method
    parts = route.strip("/").split("/")
    if route == "/" and method == "GET":
        return JSONResponse(_index(site))
    if route.rstrip("/") == "/wp/v2/users/me" and method == "GET":
        if user is None:
            return wp_error(401, "rest_not_logged_in", "Şu anda oturum açmış değilsiniz.")
        return JSONResponse(_me(user))
    if parts[:3] == ["wp", "v2", "posts"]:
        post_id = int(parts[3]) if len(parts) == 4 and parts[3].isdigit() else None
        if len(parts) == 3 and method == "GET":
            return _list(site, request, user)
        if len(parts) == 3 and method == "POST":
            return await _write(site, request, user, None)
        if post_id is not None and method in ("POST", "PUT", "PATCH"):
            return await _write(site, request, user, post_id)
        if post_id is not None and method == "GET":
            return _read(site, request, user, post_id)
    return wp_error(404, "rest_no_route", "URL ve istek yöntemiyle eşleşen bir rota bulunamadı.")
