"""Bot API methods that hand out updates: long polling, or a webhook (which excludes polling)."""

from __future__ import annotations

import re
from http import HTTPStatus
from urllib.parse import urlsplit

from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON
from tests.e2e.fake_telegram.replies import ApiError, Described, bad_request
from tests.e2e.fake_telegram.state import BotState

__all__ = ["delete_webhook", "get_updates", "get_webhook_info", "set_webhook"]

WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
OTHER_POLL = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
_MAX_LIMIT = 100
_WEBHOOK_PORTS = (80, 88, 443, 8443)
_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
_DEFAULT_MAX_CONNECTIONS = 40


async def get_updates(state: BotState, params: Params) -> list[JSON]:
    """getUpdates: confirm up to ``offset``, then wait up to ``timeout`` for an update."""
    if state.webhook is not None:
        raise ApiError(HTTPStatus.CONFLICT, WEBHOOK_ACTIVE)
    offset = params.optional_integer("offset")
    limit = min(max(params.optional_integer("limit") or _MAX_LIMIT, 1), _MAX_LIMIT)
    timeout = max(params.number("timeout", 0), 0)
    _take_allowed_updates(state, params)
    if offset is not None:
        state.confirm(offset)
    state.polls += 1
    ticket = state.polls
    state.changes.notify()  # an older poll still waiting ends now
    await state.changes.wait_until(
        lambda: bool(state.updates) or state.closing or state.polls != ticket, timeout
    )
    if state.polls != ticket:
        raise ApiError(HTTPStatus.CONFLICT, OTHER_POLL)
    return state.updates[:limit]


async def set_webhook(state: BotState, params: Params) -> Described:
    """setWebhook: an HTTPS URL on an allowed port; an empty URL removes the webhook."""
    url = params.string("url")
    if not url:
        return await delete_webhook(state, params)
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if (parts.port or 443) not in _WEBHOOK_PORTS:
        raise bad_request("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443")
    secret = params.string("secret_token")
    if secret and not _SECRET_TOKEN.fullmatch(secret):
        raise bad_request("secret token contains unallowed characters")
    _take_allowed_updates(state, params)
    if params.flag("drop_pending_updates"):
        state.updates.clear()
    unchanged = state.webhook is not None and state.webhook["url"] == url
    state.webhook = {
        "url": url,
        "secret_token": secret,
        "max_connections": params.optional_integer("max_connections") or _DEFAULT_MAX_CONNECTIONS,
    }
    return Described(True, "Webhook is already set" if unchanged else "Webhook was set")


async def delete_webhook(state: BotState, params: Params) -> Described:
    """deleteWebhook: back to polling, dropping the pending updates if asked."""
    if params.flag("drop_pending_updates"):
        state.updates.clear()
    existed, state.webhook = state.webhook is not None, None
    return Described(True, "Webhook was deleted" if existed else "Webhook is already deleted")


async def get_webhook_info(state: BotState, params: Params) -> JSON:
    """getWebhookInfo: the URL (empty while polling) and how many updates wait."""
    info: JSON = {
        "url": state.webhook["url"] if state.webhook else "",
        "has_custom_certificate": False,
        "pending_update_count": len(state.updates),
    }
    if state.webhook is not None:
        info["max_connections"] = state.webhook["max_connections"]
        if state.allowed_updates:
            info["allowed_updates"] = sorted(state.allowed_updates)
    return info


def _take_allowed_updates(state: BotState, params: Params) -> None:
    allowed = params.json_list("allowed_updates")
    if allowed is not None:
        state.allowed_updates = frozenset(str(kind) for kind in allowed)
