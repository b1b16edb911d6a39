"""Requests Slack sends to the app under test (``/slack/events``), built and signed like Slack's.

Each builder returns ``(body, headers)`` ready to POST. Interactions get a fresh trigger id and
response URL that this fake honours, and the channel they come from becomes known to it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from tests.e2e.fake_slack.ids import APP_ID, BOT_ID, BOT_USER_ID
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["SignedRequests"]

# Slack still sends the deprecated verification token; Bolt ignores it unless configured.
VERIFICATION_TOKEN = "fake-verification-token"
TEAM_DOMAIN = "fake-workspace"

Signed = tuple[bytes, dict[str, str]]


class SignedRequests:
    """Builds slash commands, button presses, shortcuts, modal submissions and events, signed
    v0."""

    def __init__(self, workspace: Workspace, signing_secret: str) -> None:
        self._workspace = workspace
        self._signing_secret = signing_secret.encode()

    def sign(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        """Slack's two signature headers for `body`, stamped now unless `timestamp` is given."""
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        base = b"v0:" + stamp.encode() + b":" + body
        digest = hmac.new(self._signing_secret, base, hashlib.sha256).hexdigest()
        return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}

    def slash_command(
        self,
        command: str = "/yaz",
        text: str = "",
        *,
        user_id: str = "U1",
        channel_id: str = "C1",
        team_id: str | None = None,
    ) -> Signed:
        """A slash command typed by `user_id` in `channel_id`, form-encoded like Slack's."""
        ws = self._workspace
        ws.conversations.know_channel(channel_id, user_id)
        fields = {
            "token": VERIFICATION_TOKEN,
            "team_id": team_id or ws.team_id,
            "team_domain": TEAM_DOMAIN,
            "channel_id": channel_id,
            "channel_name": _channel_name(channel_id),
            "user_id": user_id,
            "user_name": user_id.lower(),
            "command": command,
            "text": text,
            "api_app_id": APP_ID,
            "is_enterprise_install": "false",
            "response_url": ws.response_urls.issue(user_id=user_id, channel_id=channel_id),
            "trigger_id": ws.views.issue_trigger(user_id),
        }
        return self._form(fields)

    def block_action(
        self,
        action_id: str,
        value: str,
        *,
        user_id: str,
        channel_id: str,
        message_ts: str,
        team_id: str | None = None,
        container: Mapping[str, Any] | None = None,
    ) -> Signed:
        """A press of the button `action_id` on a message (or ephemeral message) the bot posted.

        The block id, the button's text and the pressed message come from what the bot posted
        with that ts, as Slack sends them; `container` overrides the container Slack would send.
        """
        ws = self._workspace
        ws.conversations.know_channel(channel_id, user_id)
        message = ws.conversations.find(channel_id, message_ts, ephemeral=False)
        ephemeral_message = ws.conversations.find(channel_id, message_ts, ephemeral=True)
        pressed = message or ephemeral_message or {}
        box = (
            dict(container)
            if container is not None
            else {
                "type": "message",
                "message_ts": message_ts,
                "channel_id": channel_id,
                "is_ephemeral": message is None and ephemeral_message is not None,
            }
        )
        team = team_id or ws.team_id
        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": _user(user_id, team),
            "api_app_id": APP_ID,
            "token": VERIFICATION_TOKEN,
            "container": box,
            "trigger_id": ws.views.issue_trigger(user_id),
            "team": {"id": team, "domain": TEAM_DOMAIN},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": channel_id, "name": _channel_name(channel_id)},
            "state": {"values": {}},
            "response_url": ws.response_urls.issue(
                user_id=user_id,
                channel_id=channel_id,
                message_ts=message_ts,
                ephemeral=bool(box.get("is_ephemeral")),
            ),
            "actions": [_action(pressed.get("blocks"), action_id, value, ws.ids.ts())],
        }
        if message is not None:
            payload["message"] = message
        return self._form({"payload": json.dumps(payload)})

    def home_action(self, action_id: str, value: str, *, user_id: str) -> Signed:
        """A press of a button on the user's Home tab: a view, no channel, no response URL."""
        ws = self._workspace
        home = ws.views.home(user_id) or {}
        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": _user(user_id, ws.team_id),
            "api_app_id": APP_ID,
            "token": VERIFICATION_TOKEN,
            "container": {"type": "view", "view_id": home.get("id", "")},
            "trigger_id": ws.views.issue_trigger(user_id),
            "team": {"id": ws.team_id, "domain": TEAM_DOMAIN},
            "enterprise": None,
            "is_enterprise_install": False,
            "view": home,
            "actions": [_action(home.get("blocks"), action_id, value, ws.ids.ts())],
        }
        return self._form({"payload": json.dumps(payload)})

    def view_submission(
        self,
        callback_id: str,
        values: Mapping[str, Any],
        *,
        user_id: str,
        private_metadata: str | None = None,
        team_id: str | None = None,
    ) -> Signed:
        """The submission of the modal `callback_id` last opened for the user, with `values`.

        `values` is the view's ``state.values``: ``{block_id: {action_id: {"type": ...,
        "value": ...}}}``. The private metadata is the opened view's unless given.
        """
        ws = self._workspace
        team = team_id or ws.team_id
        opened = ws.views.latest(user_id, callback_id)
        view: dict[str, Any] = (
            dict(opened.view)
            if opened is not None
            else {
                "id": ws.ids.new("V"),
                "team_id": team,
                "type": "modal",
                "callback_id": callback_id,
                "private_metadata": "",
                "blocks": [],
                "app_id": APP_ID,
                "bot_id": BOT_ID,
            }
        )
        view["state"] = {"values": dict(values)}
        if private_metadata is not None:
            view["private_metadata"] = private_metadata
        payload: dict[str, Any] = {
            "type": "view_submission",
            "team": {"id": team, "domain": TEAM_DOMAIN},
            "user": _user(user_id, team),
            "api_app_id": APP_ID,
            "token": VERIFICATION_TOKEN,
            "trigger_id": ws.views.issue_trigger(user_id),
            "view": view,
            "response_urls": [],
            "enterprise": None,
            "is_enterprise_install": False,
        }
        return self._form({"payload": json.dumps(payload)})

    def message_shortcut(
        self,
        callback_id: str,
        text: str,
        *,
        user_id: str,
        channel_id: str,
        author_id: str | None = None,
        team_id: str | None = None,
    ) -> Signed:
        """The message shortcut `callback_id` chosen by `user_id` on a message of `author_id`
        (themselves by default) reading `text` in `channel_id`, as Slack posts it.

        Slack escapes ``& < >`` in the message's text, as in every text it sends.
        """
        ws = self._workspace
        ws.conversations.know_channel(channel_id, user_id)
        team = team_id or ws.team_id
        ts = ws.ids.ts()
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        payload: dict[str, Any] = {
            "type": "message_action",
            "token": VERIFICATION_TOKEN,
            "action_ts": ws.ids.ts(),
            "team": {"id": team, "domain": TEAM_DOMAIN},
            "user": _user(user_id, team),
            "channel": {"id": channel_id, "name": _channel_name(channel_id)},
            "is_enterprise_install": False,
            "enterprise": None,
            "callback_id": callback_id,
            "trigger_id": ws.views.issue_trigger(user_id),
            "response_url": ws.response_urls.issue(user_id=user_id, channel_id=channel_id),
            "message_ts": ts,
            "message": {
                "type": "message",
                "user": author_id or user_id,
                "ts": ts,
                "text": escaped,
                "team": team,
            },
        }
        return self._form({"payload": json.dumps(payload)})

    def global_shortcut(
        self, callback_id: str, *, user_id: str, team_id: str | None = None
    ) -> Signed:
        """The global shortcut `callback_id` chosen by `user_id`: no channel, no response URL."""
        ws = self._workspace
        team = team_id or ws.team_id
        payload: dict[str, Any] = {
            "type": "shortcut",
            "token": VERIFICATION_TOKEN,
            "action_ts": ws.ids.ts(),
            "team": {"id": team, "domain": TEAM_DOMAIN},
            "user": _user(user_id, team),
            "is_enterprise_install": False,
            "enterprise": None,
            "callback_id": callback_id,
            "trigger_id": ws.views.issue_trigger(user_id),
        }
        return self._form({"payload": json.dumps(payload)})

    def event(
        self, event: Mapping[str, Any], *, event_id: str | None = None, team_id: str | None = None
    ) -> Signed:
        """An Events API ``event_callback`` envelope around `event`, with a fresh event id."""
        ws = self._workspace
        channel, user = event.get("channel"), event.get("user")
        if isinstance(channel, str) and isinstance(user, str):
            ws.conversations.know_channel(channel, user)
        team = team_id or ws.team_id
        envelope = {
            "token": VERIFICATION_TOKEN,
            "team_id": team,
            "api_app_id": APP_ID,
            "event": dict(event),
            "type": "event_callback",
            "event_id": event_id or ws.ids.new("Ev"),
            "event_time": int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": team,
                    "user_id": BOT_USER_ID,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
        }
        body = json.dumps(envelope).encode()
        return body, {"Content-Type": "application/json", **self.sign(body)}

    def _form(self, fields: Mapping[str, str]) -> Signed:
        body = urlencode(fields).encode()
        return body, {"Content-Type": "application/x-www-form-urlencoded", **self.sign(body)}


def _action(blocks: Any, action_id: str, value: str, action_ts: str) -> dict[str, Any]:
    """The pressed element as Slack reports it, taken from the message's blocks when there."""
    for block in blocks if isinstance(blocks, list) else []:
        elements = block.get("elements")
        for element in [*(elements if isinstance(elements, list) else []), block.get("accessory")]:
            if isinstance(element, dict) and element.get("action_id") == action_id:
                return {
                    **element,
                    "block_id": block.get("block_id", ""),
                    "value": value,
                    "action_ts": action_ts,
                }
    return {
        "type": "button",
        "action_id": action_id,
        "block_id": "",
        "value": value,
        "action_ts": action_ts,
    }


def _user(user_id: str, team_id: str) -> dict[str, str]:
    return {"id": user_id, "username": user_id.lower(), "name": user_id.lower(), "team_id": team_id}


def _channel_name(channel_id: str) -> str:
    return "directmessage" if channel_id.startswith("D") else channel_id.lower()
