"""The Graph API routes of the Cloud API that a bot calls, each behind its access token.

``POST /{version}/{phone-number-id}/messages`` sends (text, interactive, document, template,
reaction) or marks a message read; ``POST /{version}/{phone-number-id}/media`` uploads a file
(multipart: ``file``, ``type``, ``messaging_product``); ``GET /{version}/{media-id}`` gives a
medium's URL, which is downloaded with the same token.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.e2e.fake_telegram.forms import read_request
from tests.e2e.fake_whatsapp.limits import GraphError, check_message
from tests.e2e.fake_whatsapp.records import PHONE_NUMBER_ID, TOKEN, Media

if TYPE_CHECKING:
    from tests.e2e.fake_whatsapp.server import FakeWhatsApp

__all__ = ["UPLOAD_TYPES", "graph_app"]

# The document types the Cloud API takes (its documentation's supported media types).
UPLOAD_TYPES = frozenset(
    {
        "text/plain",
        "application/pdf",
        "application/msword",
        "application/vnd.ms-excel",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    }
)
_EXPIRED_TOKEN = 190
_UNKNOWN_OBJECT = 100
DOWNLOAD_PATH = "/whatsapp_business/attachments/"


def _error(err: GraphError) -> JSONResponse:
    return JSONResponse(err.body(), status_code=err.status)


def _authorized(request: Request) -> bool:
    given = request.headers.get("authorization", "")
    return hmac.compare_digest(given.encode(), f"Bearer {TOKEN}".encode())


def graph_app(fake: FakeWhatsApp) -> Starlette:
    """The Graph API of the fake's one phone number."""

    async def guarded(request: Request) -> Response:
        if not _authorized(request):
            return _error(GraphError(_EXPIRED_TOKEN, "invalid OAuth access token", status=401))
        phone = request.path_params.get("phone")
        if phone is not None and phone != PHONE_NUMBER_ID:
            return _error(GraphError(_UNKNOWN_OBJECT, f"unknown object {phone}"))
        try:
            return await _ROUTES[request.scope["route"].name](fake, request)
        except GraphError as err:
            fake.refused.append((request.url.path, err))
            return _error(err)

    return Starlette(
        routes=[
            Route("/{version}/{phone}/messages", guarded, methods=["POST"], name="messages"),
            Route("/{version}/{phone}/media", guarded, methods=["POST"], name="upload"),
            Route(DOWNLOAD_PATH + "{media}", guarded, methods=["GET"], name="download"),
            Route("/{version}/{media}", guarded, methods=["GET"], name="media_url"),
        ]
    )


async def _messages(fake: FakeWhatsApp, request: Request) -> Response:
    try:
        message: dict[str, Any] = json.loads(await request.body())
    except ValueError:
        raise GraphError(_UNKNOWN_OBJECT, "the body is no JSON") from None
    if message.get("status") == "read":
        fake.read.append(str(message.get("message_id")))
        return JSONResponse({"success": True})
    kind = check_message(message)
    sent, late = fake.accept(message, kind)
    if late is not None:
        # Accepted, then failed: told by a status webhook a moment after the answer.
        asyncio.get_running_loop().call_later(
            0.01, lambda: asyncio.ensure_future(fake.status(sent, "failed", [late.status_error()]))
        )
    return JSONResponse(
        {
            "messaging_product": "whatsapp",
            "contacts": [{"input": sent.to, "wa_id": sent.to}],
            "messages": [{"id": sent.id}],
        }
    )


async def _upload(fake: FakeWhatsApp, request: Request) -> Response:
    fields, files = await read_request(request)
    upload = files.get("file")
    if upload is None or fields.get("messaging_product") != "whatsapp":
        raise GraphError(_UNKNOWN_OBJECT, "file and messaging_product are required")
    mime = str(fields.get("type") or upload.content_type)
    if mime not in UPLOAD_TYPES:
        raise GraphError(131053, f"unsupported media type {mime}")
    media_id = fake.new_id("media.")
    fake.media[media_id] = Media(upload.content, mime, upload.filename or "")
    return JSONResponse({"id": media_id})


async def _media_url(fake: FakeWhatsApp, request: Request) -> Response:
    media_id = request.path_params["media"]
    media = fake.media.get(media_id)
    if media is None:
        raise GraphError(_UNKNOWN_OBJECT, f"unknown media {media_id}")
    return JSONResponse(
        {
            "messaging_product": "whatsapp",
            "url": f"{fake.url}{DOWNLOAD_PATH}{media_id}",
            "mime_type": media.mime_type,
            "sha256": hashlib.sha256(media.content).hexdigest(),
            "file_size": len(media.content),
            "id": media_id,
        }
    )


async def _download(fake: FakeWhatsApp, request: Request) -> Response:
    media = fake.media.get(request.path_params["media"])
    if media is None:
        return Response(status_code=404)
    return Response(media.content, media_type=media.mime_type)


_ROUTES = {"messages": _messages, "upload": _upload, "media_url": _media_url, "download": _download}
