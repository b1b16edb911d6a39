"""The fake's HTTP side: ``/api/<method>``, the upload and download URLs, the response URLs.

Requests are decoded the way slack_sdk sends them: parameters in the query string
(``params=``), a form-encoded body (``data=``) or a JSON body (``json=``), with the bot token
in ``Authorization: Bearer``. Every request, answered or refused, notifies ``changed``.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.faults import Faults
from tests.e2e.fake_slack.records import Call
from tests.e2e.fake_slack.socket_mode import SocketMode
from tests.e2e.fake_slack.web_api import call
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["create_app"]

OPEN_CONNECTION = "apps.connections.open"
# Parameters that carry JSON; form-encoded and query-string calls send them as strings.
_JSON_PARAMS = ("attachments", "blocks", "files", "metadata", "view")


def create_app(
    workspace: Workspace,
    *,
    faults: Faults,
    calls: list[Call],
    changed: asyncio.Condition,
    socket_mode: SocketMode,
) -> Starlette:
    """The ASGI app serving `workspace`, recording Web API calls in `calls`."""

    async def notify() -> None:
        async with changed:
            changed.notify_all()

    async def web_api(request: Request) -> Response:
        method = request.path_params["method"]
        params: dict[str, Any] = {}
        status, headers = 200, {}
        try:
            params = await _params(request)
            token = _token(request, params)
            fault = faults.take(method)
            if fault is not None:
                status, body, headers = fault.status, fault.body(), fault.headers()
            elif method == OPEN_CONNECTION:
                # The one method called with the app-level token instead of the bot's.
                body = {"ok": True, **socket_mode.open(token)}
            else:
                body = call(workspace, method, token, params)
        except SlackError as err:
            body = err.answer()
        calls.append(Call(method, params, status, body, time.monotonic()))
        await notify()
        return JSONResponse(body, status_code=status, headers=headers)

    async def upload(request: Request) -> Response:
        content = await request.body()
        stored = workspace.uploads.store(request.path_params["file_id"], content)
        await notify()
        if not stored:
            return PlainTextResponse("no such upload", status_code=404)
        return PlainTextResponse(f"OK - {len(content)}")

    async def download(request: Request) -> Response:
        content = workspace.uploads.download(request.url.path)
        if content is None:
            return PlainTextResponse("not found", status_code=404)
        if request.headers.get("authorization") != f"Bearer {workspace.bot_token}":
            # As Slack does: without the token, a sign-in page instead of the file.
            return HTMLResponse("<html><body>Sign in to Slack</body></html>")
        return Response(content, media_type="application/octet-stream")

    async def respond(request: Request) -> Response:
        try:
            workspace.response_urls.respond(request.path_params["hook_id"], await _json(request))
        except SlackError as err:
            status = 404 if err.error == "expired_url" else 400
            return JSONResponse(err.answer(), status_code=status)
        finally:
            await notify()
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            Route("/api/{method}", web_api, methods=["GET", "POST"]),
            Route("/upload/{file_id}", upload, methods=["POST"]),
            Route("/respond/{hook_id}", respond, methods=["POST"]),
            Route("/files-pri/{key}/download/{name}", download, methods=["GET"]),
        ]
    )


async def _params(request: Request) -> dict[str, Any]:
    params: dict[str, Any] = dict(request.query_params)
    if await request.body():
        kind = request.headers.get("content-type", "").partition(";")[0].strip()
        if kind == "application/json":
            params.update(await _json(request))
        elif kind == "application/x-www-form-urlencoded":
            form = (await request.body()).decode("utf-8", errors="replace")
            params.update(parse_qsl(form, keep_blank_values=True))
        else:
            raise SlackError("invalid_form_data")
    for name in _JSON_PARAMS:
        if isinstance(params.get(name), str):
            try:
                params[name] = json.loads(params[name])
            except ValueError:
                raise SlackError("invalid_arguments", f"[ERROR] {name} is not JSON") from None
    return params


async def _json(request: Request) -> dict[str, Any]:
    try:
        decoded = json.loads(await request.body())
    except ValueError:
        raise SlackError("invalid_json") from None
    if not isinstance(decoded, dict):
        raise SlackError("invalid_json")
    return decoded


def _token(request: Request, params: dict[str, Any]) -> str | None:
    """The token of the call, taken out of the recorded parameters when sent as one."""
    in_params = params.pop("token", None)
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token:
        return token
    return None if in_params is None else str(in_params)
