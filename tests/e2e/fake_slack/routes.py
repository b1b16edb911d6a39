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

from tests.e2e.fake_slack.distribution import Distribution
from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.faults import Faults
from tests.e2e.fake_slack.records import Call
from tests.e2e.fake_slack.socket_mode import SocketMode
from tests.e2e.fake_slack.web_api import call
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["create_app"]

OPEN_CONNECTION = "apps.connections.open"
EXCHANGE_CODE = "oauth.v2.access"
UNINSTALL = "apps.uninstall"
# Parameters that carry JSON; form-encoded and query-string calls send them as strings.
_JSON_PARAMS = ("attachments", "blocks", "files", "metadata", "view")


def create_app(
    workspace: Workspace,
    *,
    distribution: Distribution,
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
        token, team = None, None
        try:
            params = await _params(request)
            token = _token(request, params)
            fault = faults.take(method)
            if fault is not None:
                status, body, headers = fault.status, fault.body(), fault.headers()
            elif method == OPEN_CONNECTION:
                # The one method called with the app-level token instead of the bot's.
                body = {"ok": True, **socket_mode.open(token)}
            elif method == EXCHANGE_CODE:
                # Called with the app's client id and secret, not a token.
                authorization = request.headers.get("authorization", "")
                body = {"ok": True, **distribution.exchange(params, authorization)}
            elif method == UNINSTALL:
                body = {"ok": True, **distribution.uninstall(params, token)}
            elif (org_answer := distribution.org_call(method, token)) is not None:
                body = {"ok": True, **org_answer}
            else:
                called = distribution.workspace_for(token)
                team = called.team_id
                body = call(called, method, params)
        except SlackError as err:
            body = err.answer()
        calls.append(Call(method, params, status, body, time.monotonic(), token, team))
        await notify()
        return JSONResponse(body, status_code=status, headers=headers)

    def team_of(request: Request) -> Workspace:
        # Another workspace's upload and response URLs carry its team id.
        team = request.path_params.get("team")
        return workspace if team is None else distribution.workspaces[team]

    async def upload(request: Request) -> Response:
        content = await request.body()
        stored = team_of(request).uploads.store(request.path_params["file_id"], content)
        await notify()
        if not stored:
            return PlainTextResponse("no such upload", status_code=404)
        return PlainTextResponse(f"OK - {len(content)}")

    async def download(request: Request) -> Response:
        content = workspace.uploads.download(request.url.path)
        if content is None:
            return PlainTextResponse("not found", status_code=404)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme != "Bearer" or distribution.token_of(workspace.team_id) != token:
            # As Slack does: without the token, a sign-in page instead of the file.
            return HTMLResponse("<html><body>Sign in to Slack</body></html>")
        return Response(content, media_type="application/octet-stream")

    async def respond(request: Request) -> Response:
        try:
            team_of(request).response_urls.respond(
                request.path_params["hook_id"], await _json(request)
            )
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
            Route("/t/{team}/upload/{file_id}", upload, methods=["POST"]),
            Route("/t/{team}/respond/{hook_id}", respond, methods=["POST"]),
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
