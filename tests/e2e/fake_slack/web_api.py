"""The Web API methods of the fake: each takes decoded parameters and answers like Slack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import BOT_ID, BOT_USER_ID
from tests.e2e.fake_slack.limits import accepted_content
from tests.e2e.fake_slack.uploads import file_info
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["call"]

Params = dict[str, Any]
Method = Callable[[Workspace, Params], dict[str, Any]]


def call(workspace: Workspace, method: str, params: Params) -> dict[str, Any]:
    """The ``ok`` answer to one call authorised in `workspace`, or SlackError for a bad method
    or argument."""
    handler = METHODS.get(method)
    if handler is None:
        raise SlackError("unknown_method")
    return {"ok": True, **handler(workspace, params)}


def _auth_test(ws: Workspace, params: Params) -> dict[str, Any]:
    return {
        "url": "https://fake-workspace.slack.com/",
        "user": "makale-bot",
        "team_id": ws.team_id,
        "team": f"Team {ws.team_id}",
        "user_id": BOT_USER_ID,
        "bot_id": BOT_ID,
        "is_enterprise_install": False,
    }


def _chat_post_message(ws: Workspace, params: Params) -> dict[str, Any]:
    message = ws.conversations.post(
        _required(params, "channel", error="channel_not_found"),
        _content(params),
        thread_ts=params.get("thread_ts"),
    )
    return {"channel": message["channel"], "ts": message["ts"], "message": dict(message)}


def _chat_update(ws: Workspace, params: Params) -> dict[str, Any]:
    message = ws.conversations.update(
        _required(params, "channel", error="channel_not_found"),
        _required(params, "ts", error="message_not_found"),
        text=params.get("text"),
        blocks=params.get("blocks"),
        markdown_text=params.get("markdown_text"),
    )
    return {
        "channel": message["channel"],
        "ts": message["ts"],
        "text": message["text"],
        "message": dict(message),
    }


def _chat_post_ephemeral(ws: Workspace, params: Params) -> dict[str, Any]:
    ephemeral = ws.conversations.post_ephemeral(
        _required(params, "channel", error="channel_not_found"),
        params.get("user"),
        _content(params),
        thread_ts=params.get("thread_ts"),
    )
    return {"message_ts": ephemeral["ts"]}


def _chat_delete(ws: Workspace, params: Params) -> dict[str, Any]:
    channel = _required(params, "channel", error="channel_not_found")
    ts = _required(params, "ts", error="message_not_found")
    ws.conversations.delete(channel, ts)
    return {"channel": channel, "ts": ts}


def _views_open(ws: Workspace, params: Params) -> dict[str, Any]:
    return {"view": ws.views.open(params.get("trigger_id"), params.get("view"))}


def _views_update(ws: Workspace, params: Params) -> dict[str, Any]:
    view = ws.views.update(
        params.get("view"),
        view_id=params.get("view_id"),
        external_id=params.get("external_id"),
        hash=params.get("hash"),
    )
    return {"view": view}


def _views_publish(ws: Workspace, params: Params) -> dict[str, Any]:
    user_id = _required(params, "user_id", error="user_not_found")
    return {"view": ws.views.publish(user_id, params.get("view"), hash=params.get("hash"))}


def _conversations_open(ws: Workspace, params: Params) -> dict[str, Any]:
    users = [user for user in str(params.get("users") or "").split(",") if user]
    if not users:
        raise SlackError("users_list_not_supplied")
    if len(users) > 1:
        raise SlackError("invalid_arguments", "[ERROR] the fake opens one-to-one DMs only")
    return {"channel": {"id": ws.conversations.dm_channel(users[0])}}


def _files_get_upload_url_external(ws: Workspace, params: Params) -> dict[str, Any]:
    filename = _required(params, "filename")
    length = _required(params, "length")
    if not length.isdigit():
        raise SlackError("invalid_arguments", "[ERROR] length must be a whole number")
    file, upload_url = ws.uploads.reserve(filename, int(length))
    return {"upload_url": upload_url, "file_id": file.id}


def _files_complete_upload_external(ws: Workspace, params: Params) -> dict[str, Any]:
    files = ws.uploads.claim(params.get("files"))
    channel_id, thread_ts = params.get("channel_id"), params.get("thread_ts")
    comment = params.get("initial_comment")
    infos = [file_info(file) for file in files]
    if channel_id:
        shared = ws.conversations.share_files(
            channel_id, files=infos, comment=comment, thread_ts=thread_ts
        )
        channel_id, thread_ts = shared["channel"], shared.get("thread_ts")
    ws.uploads.complete(files, channel_id=channel_id, thread_ts=thread_ts, initial_comment=comment)
    return {"files": infos}


def _content(params: Params) -> dict[str, Any]:
    return accepted_content(params.get("text"), params.get("blocks"), params.get("markdown_text"))


def _required(params: Params, name: str, *, error: str = "invalid_arguments") -> str:
    value = params.get(name)
    if value is None or value == "":
        raise SlackError(error, f"[ERROR] missing required field: {name}")
    return str(value)


METHODS: dict[str, Method] = {
    "auth.test": _auth_test,
    "chat.postMessage": _chat_post_message,
    "chat.update": _chat_update,
    "chat.postEphemeral": _chat_post_ephemeral,
    "chat.delete": _chat_delete,
    "views.open": _views_open,
    "views.update": _views_update,
    "views.publish": _views_publish,
    "conversations.open": _conversations_open,
    "files.getUploadURLExternal": _files_get_upload_url_external,
    "files.completeUploadExternal": _files_complete_upload_external,
}
