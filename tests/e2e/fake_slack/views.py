"""Trigger ids and the modals and Home tabs opened with them."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import APP_ID, BOT_ID, Ids
from tests.e2e.fake_slack.limits import check_view
from tests.e2e.fake_slack.records import OpenedView

__all__ = ["Views"]


@dataclass
class _Trigger:
    user_id: str
    issued: float
    used: bool = False


class Views:
    """Issues trigger ids with interactions, and keeps each view as Slack last returned it."""

    def __init__(self, ids: Ids, team_id: str, trigger_ttl: float) -> None:
        self._ids = ids
        self._team_id = team_id
        self._trigger_ttl = trigger_ttl
        self._triggers: dict[str, _Trigger] = {}
        self._shown: dict[str, OpenedView] = {}  # view id -> view, in the order first shown

    def issue_trigger(self, user_id: str) -> str:
        """A fresh trigger id for an interaction of this user, usable once, for a short while."""
        trigger_id = self._ids.secret()
        self._triggers[trigger_id] = _Trigger(user_id, time.monotonic())
        return trigger_id

    def open(self, trigger_id: Any, view: Any) -> dict[str, Any]:
        """Open a modal for the user of the trigger (views.open)."""
        trigger = self._triggers.get(trigger_id)
        if trigger is None:
            raise SlackError("invalid_trigger_id")
        if trigger.used:
            raise SlackError("exchanged_trigger_id")
        if time.monotonic() - trigger.issued >= self._trigger_ttl:
            raise SlackError("expired_trigger_id")
        check_view(view, kind="modal")
        trigger.used = True
        return self._show(trigger.user_id, view, self._ids.new("V"))

    def update(self, view: Any, *, view_id: Any, external_id: Any, hash: Any) -> dict[str, Any]:
        """Replace an open view, found by id or external id, unless its hash moved on."""
        opened = next(
            (
                shown
                for shown in self._shown.values()
                if (view_id and shown.view["id"] == view_id)
                or (external_id and shown.view["external_id"] == external_id)
            ),
            None,
        )
        if opened is None:
            raise SlackError("not_found")
        if hash and hash != opened.view["hash"]:
            raise SlackError("hash_conflict")
        check_view(view, kind=opened.view["type"])
        return self._show(opened.user_id, view, opened.view["id"])

    def publish(self, user_id: str, view: Any, *, hash: Any) -> dict[str, Any]:
        """Set a user's Home tab (views.publish)."""
        home = next(
            (
                shown
                for shown in self._shown.values()
                if shown.user_id == user_id and shown.view["type"] == "home"
            ),
            None,
        )
        if home is not None and hash and hash != home.view["hash"]:
            raise SlackError("hash_conflict")
        check_view(view, kind="home")
        return self._show(user_id, view, home.view["id"] if home else self._ids.new("V"))

    def home(self, user_id: str) -> dict[str, Any] | None:
        """The user's Home tab as last published, if any."""
        return next(
            (
                s.view
                for s in self._shown.values()
                if s.user_id == user_id and s.view["type"] == "home"
            ),
            None,
        )

    def shown(self) -> list[OpenedView]:
        """Every view shown so far, each in its latest form."""
        return list(self._shown.values())

    def latest(self, user_id: str, callback_id: str) -> OpenedView | None:
        """The view with this callback id most recently opened for the user, if any."""
        matching = [
            shown
            for shown in self._shown.values()
            if shown.user_id == user_id and shown.view.get("callback_id") == callback_id
        ]
        return matching[-1] if matching else None

    def _show(self, user_id: str, view: dict[str, Any], view_id: str) -> dict[str, Any]:
        shown = {
            **view,
            "id": view_id,
            "team_id": self._team_id,
            "callback_id": view.get("callback_id", ""),
            "private_metadata": view.get("private_metadata", ""),
            "external_id": view.get("external_id", ""),
            "state": {"values": {}},
            "hash": self._ids.secret(),
            "root_view_id": view_id,
            "app_id": APP_ID,
            "bot_id": BOT_ID,
        }
        self._shown[view_id] = OpenedView(user_id, shown)
        return shown
