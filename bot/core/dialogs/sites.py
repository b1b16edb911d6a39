"""A client's WordPress site (``Web sitesi`` in /musteriler), and ``WordPress'e taslak``.

The site is asked for in three messages (its address, the username, the application
password, whose message is deleted at once), or in one Slack form; it is checked against
the site and kept (encrypted) only when the site took it.
"""

from __future__ import annotations

import json
from dataclasses import replace

from bot.core.clients.dialog import live_client
from bot.core.clients.picker import Client
from bot.core.conversation.actions import ClientSite, ConnectSite, PublishDraft, RemoveSite
from bot.core.conversation.events import Press, SiteForm, Text
from bot.core.conversation.inputs import one_line
from bot.core.conversation.screens import Button, Screen
from bot.core.publishing.client_sites import ClientSites, PostBusy
from bot.core.publishing.errors import AppPasswordsOff, SiteError
from bot.core.publishing.site import SiteCredentials, site_address
from bot.core.texts import Texts
from bot.core.turn import Turn, text_screen
from storage import jobs
from storage.states import Awaiting

__all__ = [
    "publish_pressed",
    "site_form_submitted",
    "site_password_entered",
    "site_pressed",
    "site_problem",
    "site_url_entered",
    "site_username_entered",
]

URL_MAX, USERNAME_MAX = 200, 60


def site_problem(texts: Texts, err: SiteError, url: str) -> str:
    """What the user is told of a site's refusal: its cause and what to do."""
    if isinstance(err, AppPasswordsOff) and url.startswith("http://"):
        return texts.sites.app_passwords_off_http
    return texts.sites.diagnosis(type(err).__name__)


def _sites(turn: Turn) -> ClientSites:
    assert turn.services.sites is not None, "bootstrap wires the clients' sites"
    return turn.services.sites


async def site_pressed(
    turn: Turn, action: ClientSite | ConnectSite | RemoveSite, press: Press
) -> None:
    """The buttons of a client's site: show it, ask for one, or forget it."""
    client = await live_client(turn, action.client)
    if client is not None:
        await _on_client(turn, action, client, press)


async def _on_client(
    turn: Turn, action: ClientSite | ConnectSite | RemoveSite, client: Client, press: Press
) -> None:
    texts = turn.texts.sites
    assert client.id is not None
    if isinstance(action, RemoveSite):
        await _sites(turn).forget(turn.user_id, client.id)
        turn.replace(press.message_id, text_screen(texts.removed.format(client=client.name)))
        return
    if isinstance(action, ConnectSite):
        # Slack opens its form for this button instead; the other chats ask three questions.
        await turn.expect(Awaiting.SITE_URL, context=_context(client.id))
        turn.replace(press.message_id, text_screen(texts.ask_url.format(client=client.name)))
        return
    site = await _sites(turn).site(turn.user_id, client.id)
    connect = Button(texts.button_connect, ConnectSite(turn.user_id, client.id).encode())
    if site is None:
        shown = text_screen(texts.none.format(client=client.name))
        turn.replace(press.message_id, Screen(shown.blocks, ((connect,),)))
        return
    shown = text_screen(
        texts.shown.format(client=client.name, name=site.name, url=site.url, username=site.username)
    )
    buttons = (
        replace(connect, label=texts.button_change),
        Button(texts.button_remove, RemoveSite(turn.user_id, client.id).encode()),
    )
    turn.replace(press.message_id, Screen(shown.blocks, (buttons,)))


def _context(client_id: int, url: str = "", username: str = "") -> str:
    """What the next answer needs: never the password."""
    return json.dumps({"c": client_id, "u": url, "n": username}, ensure_ascii=False)


def _read_context(turn: Turn) -> tuple[int, str, str]:
    try:
        known = json.loads(turn.user.awaiting_context or "")
        return int(known["c"]), str(known["u"]), str(known["n"])
    except (ValueError, KeyError, TypeError):
        return 0, "", ""


async def site_url_entered(turn: Turn, text: Text) -> None:
    """Take the address, and ask for the username."""
    client_id, _, _ = _read_context(turn)
    address = site_address(one_line(text.text))
    if address is None or len(address) > URL_MAX:
        await turn.expect(Awaiting.SITE_URL, context=_context(client_id))
        turn.say(turn.texts.sites.bad_url)
        return
    await turn.expect(Awaiting.SITE_USERNAME, context=_context(client_id, address))
    turn.say(turn.texts.sites.ask_username)


async def site_username_entered(turn: Turn, text: Text) -> None:
    """Take the username, and ask for the application password (its message to be deleted)."""
    client_id, address, _ = _read_context(turn)
    username = one_line(text.text)
    if not 1 <= len(username) <= USERNAME_MAX:
        await turn.expect(Awaiting.SITE_USERNAME, context=_context(client_id, address))
        turn.say(turn.texts.sites.bad_username)
        return
    await turn.expect(Awaiting.SITE_PASSWORD, context=_context(client_id, address, username))
    texts = turn.texts.sites
    ask = texts.ask_password if turn.origin.deletes_messages else texts.ask_password_unseen
    turn.send(Screen(text_screen(ask).blocks, secret_input=True))


async def site_password_entered(turn: Turn, text: Text) -> None:
    """Delete the password's message, check it against the site, and keep it if it passed."""
    await turn.delete(text.message_id)
    client_id, address, username = _read_context(turn)
    await turn.expect(None)
    if not turn.origin.private:
        # Typed where others may have read it: not to be used.
        turn.say(turn.texts.login_private_only)
        return
    client = await live_client(turn, client_id)
    if client is not None and address:
        await _connect(turn, client, address, username, text.text.strip())


async def site_form_submitted(turn: Turn, form: SiteForm) -> None:
    """Check the three fields of a site's form against the site, and keep them if it passed."""
    await turn.expect(None)
    client = await live_client(turn, form.client)
    if client is None:
        return
    address = site_address(one_line(form.url))
    username = one_line(form.username)
    if address is None or len(address) > URL_MAX:
        turn.say(turn.texts.sites.bad_url, buttons=(_again(turn, form.client),))
    elif not 1 <= len(username) <= USERNAME_MAX:
        turn.say(turn.texts.sites.bad_username, buttons=(_again(turn, form.client),))
    else:
        await _connect(turn, client, address, username, form.app_password.strip())


def _again(turn: Turn, client_id: int) -> tuple[Button, ...]:
    return (Button(turn.texts.sites.button_change, ConnectSite(turn.user_id, client_id).encode()),)


async def _connect(turn: Turn, client: Client, address: str, username: str, password: str) -> None:
    """Keep the site once it took the password; else say why, with a button to try again."""
    assert client.id is not None
    texts = turn.texts.sites
    await turn.progress(texts.checking)
    try:
        name = await _sites(turn).connect(client.id, SiteCredentials(address, username, password))
    except SiteError as err:
        turn.say(site_problem(turn.texts, err, address), buttons=(_again(turn, client.id),))
        return
    turn.say(texts.connected.format(name=name, client=client.name))


async def publish_pressed(turn: Turn, action: PublishDraft, press: Press) -> None:
    """Write the article as a draft on its client's site, and give the editor's link."""
    texts = turn.texts.sites
    job = await turn.store(lambda s: jobs.job_by_request_id(s, request_id=action.request_id))
    if job is None or job.chat_user_id != turn.user_id or not job.content:
        turn.notice(turn.texts.stale_button)
        return
    site = await _sites(turn).site(turn.user_id, job.client_id)
    if site is None:
        turn.notice(turn.texts.stale_button)
        return
    await turn.progress(texts.publishing)
    try:
        post = await _sites(turn).publish_draft(site, job)
    except PostBusy:
        turn.say(texts.busy)
        return
    except SiteError as err:
        turn.say(site_problem(turn.texts, err, site.url))
        return
    turn.say(texts.published.format(title=job.title, edit_link=post.edit_link))
