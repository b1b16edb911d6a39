"""The HTTP face of the fake: ``/bot<token>/<method>`` and ``/file/bot<token>/<path>``."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.e2e.fake_telegram.forms import read_request
from tests.e2e.fake_telegram.methods import METHODS
from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON, Call, StoredFile
from tests.e2e.fake_telegram.replies import ApiError, Described
from tests.e2e.fake_telegram.state import BotState
from tests.telegram_limits import COUNTED_METHODS

__all__ = ["build_app"]


def build_app(state: BotState) -> Starlette:
    """A Starlette app answering Bot API requests from ``state``."""

    async def bot_method(request: Request) -> Response:
        call = Call(request.path_params["method"], {}, time.monotonic())
        state.calls.append(call)
        try:
            call.params, call.files = await read_request(request)
            state.changes.notify()
            result = await _run(state, request.path_params["token"], call)
            body, status = _success(result), int(HTTPStatus.OK)
        except ApiError as err:
            body, status = err.answer(), err.status
        call.response = body
        state.changes.notify()
        return JSONResponse(body, status)

    async def file_download(request: Request) -> Response:
        path = request.path_params["path"]
        if request.path_params["token"] == state.token:
            for file in state.files.values():
                if file.file_path == path:
                    length = {"content-length": str(len(file.content))}
                    chunks = _chunks_of(state, file)
                    return StreamingResponse(chunks, headers=length, media_type=file.mime_type)
        not_found = ApiError(HTTPStatus.NOT_FOUND)
        return JSONResponse(not_found.answer(), not_found.status)

    return Starlette(
        routes=[
            Route("/bot{token}/{method}", bot_method, methods=["GET", "POST"]),
            Route("/file/bot{token}/{path:path}", file_download, methods=["GET"]),
        ]
    )


_CHUNK = 64 * 1024


async def _chunks_of(state: BotState, file: StoredFile) -> AsyncIterator[bytes]:
    """The file in pieces, counted as they go, so a test sees where a reader stopped."""
    for start in range(0, len(file.content), _CHUNK):
        piece = file.content[start : start + _CHUNK]
        state.served[file.file_path] = state.served.get(file.file_path, 0) + len(piece)
        yield piece
        # A turn for the server to notice a reader that hung up, and stop the stream.
        await asyncio.sleep(0)


async def _run(state: BotState, token: str, call: Call) -> Any:
    if token != state.token:
        raise ApiError(HTTPStatus.UNAUTHORIZED)
    handler = METHODS.get(call.method.lower())
    if handler is None:
        raise ApiError(HTTPStatus.NOT_FOUND)
    fault = state.take_fault(call.method)
    if fault is not None:
        raise fault
    chat_id = _counted_chat(call)
    if chat_id is None:
        return await handler(state, Params(call.params, call.files))
    limits = state.throttle.limits
    if limits is not None and limits.jitter > 0:
        # The network's jitter: judged a little later, at random, than it was sent.
        await asyncio.sleep(random.uniform(0, limits.jitter))
    retry_after = state.throttle.admit(chat_id)
    if retry_after is not None:
        raise ApiError(HTTPStatus.TOO_MANY_REQUESTS, retry_after=retry_after)
    result = await handler(state, Params(call.params, call.files))
    state.throttle.record(call.method, chat_id)
    if state.answer_delay > 0:
        # The message is in the chat already; only the bot learns of it late.
        await asyncio.sleep(state.answer_delay)
    return result


def _counted_chat(call: Call) -> int | None:
    """The chat a call that posts or changes a message goes to; None for any other call."""
    if call.method.lower() not in COUNTED_METHODS:
        return None
    chat_id = call.params.get("chat_id")
    if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
        return int(chat_id)
    return chat_id if isinstance(chat_id, int) else None


def _success(result: Any) -> JSON:
    if isinstance(result, Described):
        return {"ok": True, "result": result.result, "description": result.description}
    return {"ok": True, "result": result}
