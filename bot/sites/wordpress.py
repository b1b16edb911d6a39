"""A client's WordPress site over its REST API: the core's ``SitePublisher``.

Every call logs in with HTTP Basic and the user's application password. Failures become the
core's ``SiteError`` classes by WordPress's ``code``; where the code cannot tell a wrong
password from a host that drops the ``Authorization`` header, XML-RPC's ``wp.getUsersBlogs``
(which takes application passwords from its body) tells them apart.
"""

from __future__ import annotations

import asyncio
import logging

# expat refuses entity bombs, and only a fault code is read from the answer.
import xmlrpc.client
from collections.abc import Awaitable, Callable
from datetime import UTC
from typing import Any, TypeVar

import httpx
import stamina

from bot.core.publishing.errors import (
    AppPasswordsOff,
    AuthorizationStripped,
    CredentialsOrHeader,
    CredentialsRejected,
    NotAllowed,
    NotWordPress,
    SiteError,
    SiteUnreachable,
    TlsRequired,
)
from bot.core.publishing.site import PostDraft, PublishedPost, SiteCredentials
from bot.sites.wordpress_rest import (
    RestRoot,
    error_code,
    json_body,
    known_refusal,
    read_index,
    unexpected,
)

__all__ = ["WordPress"]

log = logging.getLogger(__name__)

T = TypeVar("T")

# Statuses a post the bot may still rewrite has; a published post keeps its status.
_UNPUBLISHED = frozenset({"draft", "pending", "future", "auto-draft"})
# XML-RPC's fault for a refused login; 405 means XML-RPC is switched off.
_XMLRPC_BAD_LOGIN = 403


class WordPress:
    """WordPress sites over one shared ``httpx.AsyncClient``; one write at a time per site."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        attempts: int = 4,
        wait_initial: float = 1.0,
        wait_max: float = 30.0,
    ) -> None:
        self._http = http
        self._locks: dict[str, asyncio.Lock] = {}
        self._retrying = stamina.AsyncRetryingCaller(
            attempts=attempts, timeout=None, wait_initial=wait_initial, wait_max=wait_max
        ).on(SiteUnreachable)

    async def check(self, creds: SiteCredentials) -> str:
        """The site's name, once it has taken the username and application password of a
        user who may write posts."""

        async def once() -> str:
            root = await self._root(creds.url)
            me = await self._call(root, creds, "GET", "/wp/v2/users/me", {"context": "edit"})
            rights = me.get("capabilities") if isinstance(me, dict) else None
            # The edit context lists the user's rights: a subscriber is told now, not at a post.
            if isinstance(rights, dict) and not rights.get("edit_posts"):
                raise NotAllowed("the user may not write posts", code="edit_posts")
            return root.name

        return await self._retried(once)

    async def publish(
        self, creds: SiteCredentials, draft: PostDraft, known_post_id: int | None
    ) -> PublishedPost:
        """Write the post (an update where it exists), then read it back."""
        async with self._locks.setdefault(creds.url.lower(), asyncio.Lock()):
            return await self._retried(lambda: self._publish_once(creds, draft, known_post_id))

    async def _retried(self, call: Callable[[], Awaitable[T]]) -> T:
        # A timeout may hide a write that went through: each attempt looks the post up first.
        return await self._retrying(call)

    async def _publish_once(
        self, creds: SiteCredentials, draft: PostDraft, known_post_id: int | None
    ) -> PublishedPost:
        root = await self._root(creds.url)
        existing = await self._existing(root, creds, draft, known_post_id)
        body = _post_body(draft, existing)
        route = "/wp/v2/posts" if existing is None else f"/wp/v2/posts/{existing['id']}"
        written = await self._call(root, creds, "POST", route, json=body)
        post_id = written.get("id") if isinstance(written, dict) else None
        if not isinstance(post_id, int):
            raise SiteError("the site answered a write without a post id")
        back = await self._post(root, creds, post_id)
        if back is None:
            raise SiteUnreachable("the post just written cannot be read back")
        return PublishedPost(
            post_id=post_id,
            link=str(back.get("link") or ""),
            edit_link=f"{root.wordpress_url}/wp-admin/post.php?post={post_id}&action=edit",
            status=str(back.get("status") or ""),
        )

    async def _existing(
        self, root: RestRoot, creds: SiteCredentials, draft: PostDraft, known_post_id: int | None
    ) -> dict[str, Any] | None:
        """The post to update: the known one while it exists, else an unpublished post of the
        same slug and title (a write whose answer was lost)."""
        if known_post_id is not None:
            post = await self._post(root, creds, known_post_id)
            if post is not None and post.get("status") != "trash":
                return post
        params = {"slug": draft.slug, "status": "draft,pending,future", "context": "edit"}
        found = await self._call(root, creds, "GET", "/wp/v2/posts", params)
        for post in found if isinstance(found, list) else ():
            if isinstance(post, dict) and _raw(post.get("title")) == draft.title:
                return post
        return None

    async def _post(
        self, root: RestRoot, creds: SiteCredentials, post_id: int
    ) -> dict[str, Any] | None:
        """The post as the editor sees it; None when the site has no post of that id."""
        try:
            post = await self._call(
                root, creds, "GET", f"/wp/v2/posts/{post_id}", {"context": "edit"}
            )
        except SiteError as err:
            if err.code == "rest_post_invalid_id":
                return None
            raise
        return post if isinstance(post, dict) else None

    async def _root(self, url: str) -> RestRoot:
        """The site's REST API: under ``/wp-json/``, else through ``?rest_route=``."""
        index = httpx.URL(f"{url}/wp-json/")
        pretty = await self._send("GET", index)
        if pretty.is_redirect:
            # The index is asked without credentials, so a redirect is safe to follow once
            # it is not the one from http:// to https:// that the user's address must say.
            target = pretty.headers.get("location", "").lower()
            if index.scheme == "http" and target.startswith("https://"):
                raise TlsRequired("the site sends http:// to https://")
            pretty = await self._send("GET", index, follow=True)
        try:
            return read_index(pretty, pretty=True)
        except NotWordPress:
            plain = httpx.URL(f"{url}/", params={"rest_route": "/"})
            return read_index(await self._send("GET", plain, follow=True), pretty=False)

    async def _call(
        self,
        root: RestRoot,
        creds: SiteCredentials,
        method: str,
        route: str,
        params: dict[str, str] | None = None,
        *,
        json: dict[str, object] | None = None,
    ) -> Any:
        """One authenticated call; its JSON, or the diagnosis of its refusal."""
        auth = httpx.BasicAuth(creds.username, creds.app_password)
        response = await self._send(method, root.route(route, params), auth=auth, json=json)
        if response.is_success:
            body = json_body(response)
            if body is None:
                raise unexpected(f"{method} {route} answered no JSON", response)
            return body
        refusal = known_refusal(response)
        if refusal is not None:
            raise refusal
        code, status = error_code(response), response.status_code
        if status == 401:
            raise await self._not_logged_in(root, creds)
        if status == 403:
            raise NotAllowed("the user may not do this", code=code, status=status)
        if status >= 500:
            raise SiteUnreachable("the site failed", code=code, status=status)
        raise unexpected(f"{method} {route} was refused", response)

    async def _not_logged_in(self, root: RestRoot, creds: SiteCredentials) -> SiteError:
        """Why a site that was sent a password says nobody is logged in."""
        if not root.app_passwords:
            # Over http:// WordPress offers them only on a "local" site: the core's message
            # names https too when the address is http://.
            return AppPasswordsOff("the index lists no application passwords")
        accepted = await self._xmlrpc_accepts(root, creds)
        if accepted is None:
            return CredentialsOrHeader("XML-RPC cannot tell", code="rest_not_logged_in")
        if accepted:
            return AuthorizationStripped("XML-RPC takes the password", code="rest_not_logged_in")
        return CredentialsRejected("XML-RPC refuses the password too", code="rest_not_logged_in")

    async def _xmlrpc_accepts(self, root: RestRoot, creds: SiteCredentials) -> bool | None:
        """Whether XML-RPC takes the username and password; None where it cannot say."""
        request = xmlrpc.client.dumps((creds.username, creds.app_password), "wp.getUsersBlogs")
        try:
            response = await self._send(
                "POST",
                httpx.URL(f"{root.wordpress_url}/xmlrpc.php"),
                content=request.encode(),
                headers={"Content-Type": "text/xml"},
            )
            if response.status_code != 200:
                return None
            xmlrpc.client.loads(response.text)
        except xmlrpc.client.Fault as fault:
            return False if fault.faultCode == _XMLRPC_BAD_LOGIN else None
        except (SiteUnreachable, xmlrpc.client.Error, ValueError):
            return None
        return True

    async def _send(
        self,
        method: str,
        url: httpx.URL,
        *,
        follow: bool = False,
        auth: httpx.Auth | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        """The answer to one request; a failed connection or a timeout is ``SiteUnreachable``."""
        try:
            return await self._http.request(
                method, url, auth=auth, follow_redirects=follow, **kwargs
            )
        except httpx.UnsupportedProtocol as err:
            raise NotWordPress("no web address") from err
        except httpx.TransportError as err:
            log.info("%s %s failed: %r", method, url.copy_with(query=None), err)
            raise SiteUnreachable(f"{type(err).__name__}") from err


def _raw(field: object) -> object:
    """A field the editor's context gives as ``{"raw": ..., "rendered": ...}``, raw."""
    return field.get("raw") if isinstance(field, dict) else field


def _post_body(draft: PostDraft, existing: dict[str, Any] | None) -> dict[str, object]:
    """What to write: the text always; the status only to a post not published yet."""
    body: dict[str, object] = {
        "title": draft.title,
        "slug": draft.slug,
        "content": draft.content,
        "excerpt": draft.excerpt,
    }
    if existing is None or existing.get("status") in _UNPUBLISHED:
        body["status"] = str(draft.status)
        if draft.date_gmt is not None:
            at = draft.date_gmt.astimezone(UTC).replace(tzinfo=None)
            body["date_gmt"] = at.isoformat(timespec="seconds")
    return body
