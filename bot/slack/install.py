"""'Add to Slack': Bolt's OAuth flow on our stores, our pages, and the refusal of a stranger team.

``GET /slack/install`` answers a page with the link (client id, the manifest's bot scopes,
a signed state, also set as Bolt's cookie) and writes nothing (bot.slack.install_states);
``GET /slack/oauth_redirect`` exchanges the code (``oauth.v2.access``, through the app's
client and so ``SLACK_API_URL``) and stores the installation. A wrong, spent or missing state
ends before any call. An org-wide install (Enterprise Grid) and a team outside
ALLOWED_SLACK_TEAMS are uninstalled again, with a page that says why.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiohttp
from slack_bolt.error import BoltError
from slack_bolt.oauth.async_callback_options import (
    AsyncCallbackOptions,
    AsyncFailureArgs,
    AsyncSuccessArgs,
)
from slack_bolt.oauth.async_oauth_flow import AsyncOAuthFlow
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackClientError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.install_states import STATE_LIFETIME, SignedStates
from bot.slack.installations import DbInstallationStore, Installations
from bot.slack.scopes import BOT_SCOPES
from bot.slack.texts import LANGUAGES, SlackTexts

__all__ = ["INSTALL_PATH", "REDIRECT_PATH", "InstallFlow", "ManyWorkspaces"]

log = logging.getLogger(__name__)

INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
_REFUSED = 403
_HTML = "text/html; charset=utf-8"


@dataclass(frozen=True)
class ManyWorkspaces:
    """What serving many workspaces takes: the app's credentials and where installs are kept."""

    client_id: str
    client_secret: str
    redirect_uri: str | None
    # Empty: every workspace may install.
    allowed_teams: frozenset[str]
    installations: Installations


class InstallRefused(BoltError):
    """An install the bot does not take; the app removed itself from there, and ``says`` why."""

    def __init__(self, where: str, says: Callable[[SlackTexts], str]) -> None:
        super().__init__(where)
        self.says = says


class StateSpent(BoltError):
    """A second install with one state: the state was spent by the first."""


def _page(title: str, paragraphs: list[str], status: int, cookie: str) -> BoltResponse:
    """A page of the redirect; the state cookie, used or not, is deleted as Bolt does."""
    body = "".join(f"<p>{part}</p>" for part in paragraphs)
    headers: dict[str, str | Sequence[str]] = {"Content-Type": _HTML, "Set-Cookie": cookie}
    return BoltResponse(
        status=status,
        headers=headers,
        body=(
            '<!doctype html><html lang="tr"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title></head><body>{body}</body></html>"
        ),
    )


class InstallFlow(AsyncOAuthFlow):
    """Bolt's flow; a team outside the allowed ones is uninstalled again and nothing stored."""

    def __init__(self, *, client: AsyncWebClient, many: ManyWorkspaces) -> None:
        self._states = SignedStates(many.client_secret, many.installations)
        settings = AsyncOAuthSettings(
            client_id=many.client_id,
            client_secret=many.client_secret,
            scopes=list(BOT_SCOPES),
            user_scopes=[],
            redirect_uri=many.redirect_uri,
            install_path=INSTALL_PATH,
            redirect_uri_path=REDIRECT_PATH,
            callback_options=AsyncCallbackOptions(success=_succeeded, failure=_failed),
            installation_store=DbInstallationStore(many.installations),
            installation_store_bot_only=True,
            state_store=self._states,
            state_expiration_seconds=int(STATE_LIFETIME.total_seconds()),
            logger=log,
        )
        super().__init__(client=client, logger=log, settings=settings)
        self._allowed = many.allowed_teams

    async def build_install_page_html(self, url: str, request: AsyncBoltRequest) -> str:
        """The install page: the 'Add to Slack' link, in every language."""
        link = html.escape(url)
        parts = [
            f'<h2>{html.escape(texts.install_title)}</h2><p><a href="{link}">'
            f"{html.escape(texts.install_link)}</a></p>"
            for texts in LANGUAGES
        ]
        return (
            '<!doctype html><html lang="tr"><head><meta charset="utf-8"></head>'
            f"<body>{''.join(parts)}</body></html>"
        )

    async def run_installation(self, code: str) -> Installation | None:
        """Exchange the code; a Slack that cannot be reached ends the install as a code that
        did not pass, on the same page as the other failures (not a bare 500)."""
        try:
            return await super().run_installation(code)
        except (aiohttp.ClientError, TimeoutError) as err:
            # The error names the host alone; the client secret travels in the body.
            log.warning("Slack could not be reached to finish an install: %s", type(err).__name__)
            return None

    async def store_installation(
        self, request: AsyncBoltRequest, installation: Installation
    ) -> None:
        """Store the installation, spending its state; an org-wide install, or a team not
        allowed, is uninstalled and refused before anything is stored."""
        if installation.is_enterprise_install:
            # README: installations are per workspace; an org's token would serve every one.
            where = f"Enterprise Grid org {installation.enterprise_id}"
            await self._uninstall(installation, where, "an org-wide install")
            raise InstallRefused(where, lambda texts: texts.org_refused)
        team = installation.team_id or ""
        if self._allowed and team not in self._allowed:
            where = f"Slack team {team}"
            await self._uninstall(installation, where, "not in ALLOWED_SLACK_TEAMS")
            raise InstallRefused(where, lambda texts: texts.team_refused)
        if not await self._states.spend(request.query.get("state", [""])[0]):
            raise StateSpent(team)
        await super().store_installation(request, installation)

    async def _uninstall(self, installation: Installation, where: str, why: str) -> None:
        # Slack installed the app before telling us where: only this undoes it.
        try:
            await self.client.apps_uninstall(
                client_id=self.settings.client_id,
                client_secret=self.settings.client_secret,
                token=installation.bot_token,
            )
        except (SlackClientError, aiohttp.ClientError, TimeoutError) as err:
            log.warning("could not uninstall from refused %s: %r", where, err)
            return
        log.warning("refused the install of %s (%s)", where, why)


async def _succeeded(args: AsyncSuccessArgs) -> BoltResponse:
    installation = args.installation
    team = installation.team_name or installation.team_id or ""
    log.info("Slack team %s installed the app", installation.team_id)
    paragraphs = [html.escape(texts.installed.format(team=team)) for texts in LANGUAGES]
    cookie = args.settings.state_utils.build_set_cookie_for_deletion()
    return _page(LANGUAGES[0].install_title, paragraphs, 200, cookie)


async def _failed(args: AsyncFailureArgs) -> BoltResponse:
    cookie = args.settings.state_utils.build_set_cookie_for_deletion()
    if isinstance(args.error, InstallRefused):
        paragraphs = [html.escape(args.error.says(texts)) for texts in LANGUAGES]
        return _page(LANGUAGES[0].install_title, paragraphs, _REFUSED, cookie)
    log.info("a Slack install ended without installing: %s", args.reason)
    paragraphs = [
        f'{html.escape(texts.install_failed)} <a href="{INSTALL_PATH}">{INSTALL_PATH}</a>'
        for texts in LANGUAGES
    ]
    return _page(LANGUAGES[0].install_title, paragraphs, args.suggested_status_code, cookie)
