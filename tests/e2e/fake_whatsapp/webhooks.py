"""Notifications of the ``messages`` field as the Cloud API posts them to an app's webhook.

Each POST is signed: ``X-Hub-Signature-256: sha256=`` and the HMAC-SHA256 of the raw body
with the app secret. A notification wraps its value in ``entry[].changes[]``; a person's
messages come with their ``contacts`` profile, delivery news as ``statuses``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

__all__ = ["SIGNATURE_HEADER", "WABA_ID", "message_value", "notification", "sign", "status_value"]

SIGNATURE_HEADER = "X-Hub-Signature-256"
WABA_ID = "102290129340398"


def sign(body: bytes, app_secret: str) -> str:
    """The signature header's value for these bytes."""
    return "sha256=" + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()


def notification(phone_number_id: str, value: dict[str, Any]) -> bytes:
    """A whole notification carrying one change of the ``messages`` field."""
    value = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550783881", "phone_number_id": phone_number_id},
        **value,
    }
    payload = {
        "object": "whatsapp_business_account",
        "entry": [{"id": WABA_ID, "changes": [{"value": value, "field": "messages"}]}],
    }
    return json.dumps(payload, ensure_ascii=False).encode()


def message_value(person: str, message: dict[str, Any], *, name: str, at: int) -> dict[str, Any]:
    """The value of a message a person sent: their profile, and the message with its id."""
    return {
        "contacts": [{"profile": {"name": name}, "wa_id": person}],
        "messages": [{"from": person, "timestamp": str(at), **message}],
    }


def status_value(
    message_id: str, person: str, status: str, *, at: int, errors: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """The value of a status of a sent message: sent, delivered, read, or failed with errors."""
    entry: dict[str, Any] = {
        "id": message_id,
        "status": status,
        "timestamp": str(at),
        "recipient_id": person,
    }
    if errors:
        entry["errors"] = errors
    return {"statuses": [entry]}
