"""Reading a Bot API request: query string, urlencoded or multipart form, or a JSON body.

Form values arrive as strings, with objects and numbers JSON-encoded inside them
(``reply_markup={"inline_keyboard": ...}``, ``chat_id=42``); they are decoded here, except the
parameters that are text by nature, which stay as sent (a message reading ``123`` is no number).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from tests.e2e.fake_telegram.records import UploadedFile
from tests.e2e.fake_telegram.replies import bad_request

__all__ = ["read_request"]

_TEXT_PARAMS = frozenset(
    {
        "action",
        "callback_query_id",
        "caption",
        "description",
        "document",
        "file_id",
        "inline_message_id",
        "inline_query_id",
        "ip_address",
        "language_code",
        "next_offset",
        "parse_mode",
        "secret_token",
        "text",
        "url",
    }
)
_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
# httpx, like browsers, percent-escapes quotes and control characters in part names.
_ESCAPED = re.compile(r"%(0[0-9A-F]|1[0-9A-F]|22)")


async def read_request(request: Request) -> tuple[dict[str, Any], dict[str, UploadedFile]]:
    """The decoded parameters and the uploaded files of ``request``."""
    raw: dict[str, Any] = dict(request.query_params)
    files: dict[str, UploadedFile] = {}
    body = await request.body()
    content_type = request.headers.get("content-type", "")
    mime = content_type.partition(";")[0].strip().lower()
    if mime == "application/json" and body:
        raw.update(_json_object(body))
    elif mime == "application/x-www-form-urlencoded":
        raw.update(parse_qsl(body.decode(), keep_blank_values=True))
    elif mime == "multipart/form-data":
        fields, files = _multipart(body, content_type)
        raw.update(fields)
    return {name: _decoded(name, value) for name, value in raw.items()}, files


def _decoded(name: str, value: Any) -> Any:
    if not isinstance(value, str) or name in _TEXT_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _json_object(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except ValueError as err:
        raise bad_request("can't parse JSON encoded request") from err
    if not isinstance(payload, dict):
        raise bad_request("JSON object expected")
    return payload


def _multipart(body: bytes, content_type: str) -> tuple[dict[str, str], dict[str, UploadedFile]]:
    match = _BOUNDARY.search(content_type)
    if match is None:
        raise bad_request("multipart boundary not found")
    delimiter = b"--" + (match.group(1) or match.group(2)).encode()
    fields: dict[str, str] = {}
    files: dict[str, UploadedFile] = {}
    for part in body.split(delimiter)[1:]:
        if part.startswith(b"--"):
            break
        head, found, content = part.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not found:
            raise bad_request("malformed multipart part")
        headers = _headers(head.decode())
        disposition = headers.get("content-disposition", "")
        name = _disposition_param(disposition, "name") or ""
        filename = _disposition_param(disposition, "filename")
        content = content.removesuffix(b"\r\n")
        if filename is None:
            fields[name] = content.decode()
        else:
            mime = headers.get("content-type", "application/octet-stream")
            files[name] = UploadedFile(filename or None, mime, content)
    return fields, files


def _headers(head: str) -> dict[str, str]:
    pairs = (line.partition(":") for line in head.split("\r\n"))
    return {name.strip().lower(): value.strip() for name, _, value in pairs}


def _disposition_param(disposition: str, name: str) -> str | None:
    match = re.search(rf'(?:^|;)\s*{name}="([^"]*)"', disposition)
    if match is None:
        return None
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), match.group(1))
