"""The app as Slack distributes it: its client credentials, and a bot token per workspace.

A person approving the app in a workspace gets a one-time code (``authorize``);
``oauth.v2.access`` trades it for that workspace's bot token. A new token replaces the old
one, which then answers ``invalid_auth`` as a revoked token does; ``apps.uninstall`` and
``remove`` (an admin removing the app in Slack) revoke a workspace's token. An Enterprise
Grid admin may approve the app for the whole organisation instead (``org=True``): the
answer then names the enterprise and no team, with ``is_enterprise_install``, and the token
is the org's.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import APP_ID, BOT_ID, BOT_USER_ID
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["CLIENT_ID", "CLIENT_SECRET", "Distribution", "Grant"]

CLIENT_ID = "1111111111.2222222222"
CLIENT_SECRET = "f4k3c113n7s3cr3700000000deadbeef"


@dataclass(frozen=True)
class Grant:
    """What Slack sends the browser back with after an approval: the code and the state."""

    code: str
    state: str
    scopes: tuple[str, ...]
    redirect_uri: str | None


@dataclass
class Distribution:
    """Workspaces by team id, the live bot token of each, and the codes not yet exchanged."""

    workspaces: dict[str, Workspace]
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    _tokens: dict[str, str] = field(default_factory=dict)
    # code -> (team or enterprise id, redirect URI, whether for the whole organisation)
    _codes: dict[str, tuple[str, str | None, bool]] = field(default_factory=dict)
    _orgs: set[str] = field(default_factory=set)
    # Slack often answers a reinstall with the token it had; the default tests the other case.
    keep_tokens: bool = False
    installs: list[str] = field(default_factory=list)
    uninstalls: list[str] = field(default_factory=list)

    def install(self, team_id: str, token: str) -> None:
        """Make ``token`` the team's one live bot token (the app installed there)."""
        self.revoke(team_id)
        self._tokens[token] = team_id

    def revoke(self, team_id: str) -> None:
        """Every token of the team stops working."""
        for token in [t for t, team in self._tokens.items() if team == team_id]:
            del self._tokens[token]

    def token_of(self, team_id: str) -> str | None:
        """The team's live bot token, if the app is installed there."""
        return next((t for t, team in self._tokens.items() if team == team_id), None)

    def org_call(self, method: str, token: str | None) -> dict[str, Any] | None:
        """The answer to a call made with an org's token (None for any other token): the
        fake knows only ``auth.test`` for those, which names the enterprise."""
        org = self._tokens.get(token or "")
        if org not in self._orgs:
            return None
        if method != "auth.test":
            raise SlackError("unknown_method")
        return {
            "url": "https://fake-org.enterprise.slack.com/",
            "user": "makale-bot",
            "team_id": org,
            "team": f"Org {org}",
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "enterprise_id": org,
            "is_enterprise_install": True,
        }

    def workspace_for(self, token: str | None) -> Workspace:
        """The workspace whose live token this is, as Slack authorises a call."""
        if not token:
            raise SlackError("not_authed")
        team = self._tokens.get(token)
        if team is None:
            raise SlackError("invalid_auth")
        return self.workspaces[team]

    def authorize(self, url: str, team_id: str, *, org: bool = False) -> Grant:
        """A person of ``team_id`` opens the app's authorize link and approves it; with
        ``org``, an admin of the enterprise ``team_id`` approves it for the organisation."""
        query = {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}
        if query.get("client_id") != self.client_id:
            raise SlackError("invalid_client_id")
        code = f"code-{secrets.token_hex(8)}"
        self._codes[code] = (team_id, query.get("redirect_uri"), org)
        scopes = tuple(scope for scope in query.get("scope", "").split(",") if scope)
        return Grant(code, query.get("state", ""), scopes, query.get("redirect_uri"))

    def exchange(self, params: dict[str, Any], authorization: str) -> dict[str, Any]:
        """``oauth.v2.access``: the code (once) for the workspace's bot token."""
        client_id, client_secret = _client_credentials(params, authorization)
        if client_id != self.client_id:
            raise SlackError("invalid_client_id")
        if client_secret != self.client_secret:
            raise SlackError("bad_client_secret")
        granted = self._codes.pop(str(params.get("code") or ""), None)
        if granted is None:
            raise SlackError("invalid_code")
        team_id, redirect_uri, org = granted
        if redirect_uri is not None and params.get("redirect_uri") != redirect_uri:
            raise SlackError("bad_redirect_uri")
        token = self.token_of(team_id) if self.keep_tokens else None
        token = token or f"xoxb-{team_id}-{secrets.token_hex(12)}"
        self.install(team_id, token)
        self.installs.append(team_id)
        if org:
            self._orgs.add(team_id)
            return {
                **self._answer(token, team_id),
                "team": None,
                "enterprise": {"id": team_id, "name": f"Org {team_id}"},
                "is_enterprise_install": True,
            }
        return self._answer(token, team_id)

    @staticmethod
    def _answer(token: str, team_id: str) -> dict[str, Any]:
        return {
            "access_token": token,
            "token_type": "bot",
            "scope": "commands,chat:write,im:write,im:history,files:write,files:read",
            "bot_user_id": BOT_USER_ID,
            "app_id": APP_ID,
            "team": {"id": team_id, "name": f"Team {team_id}"},
            "enterprise": None,
            "is_enterprise_install": False,
            "authed_user": {"id": "U0ADMIN"},
        }

    def uninstall(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        """``apps.uninstall``: the app's credentials and the workspace's (or the org's) token."""
        owner = self._tokens.get(token or "")
        if owner not in self._orgs:
            owner = self.workspace_for(token).team_id
        if params.get("client_id") != self.client_id:
            raise SlackError("invalid_client_id")
        if params.get("client_secret") != self.client_secret:
            raise SlackError("bad_client_secret")
        self.revoke(owner)
        self.uninstalls.append(owner)
        return {}


def _client_credentials(params: dict[str, Any], authorization: str) -> tuple[str, str]:
    """From HTTP Basic auth, as slack_sdk sends them, else from the parameters."""
    scheme, _, encoded = authorization.partition(" ")
    if scheme.lower() == "basic" and encoded:
        client_id, _, client_secret = base64.b64decode(encoded).decode().partition(":")
        return client_id, client_secret
    return str(params.get("client_id") or ""), str(params.get("client_secret") or "")
