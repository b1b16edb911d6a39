"""The login, order and site modals, what their submissions hold, and where their answer goes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.conversation.events import SiteForm
from bot.core.conversation.forms import TITLE_MAX, TITLE_MIN, OrderChoices
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.texts.sites import SiteTexts
from bot.slack import render
from bot.slack.texts import SlackTexts

__all__ = [
    "CLIENT",
    "EMAIL",
    "LOGIN",
    "ORDER",
    "PASSWORD",
    "SITE",
    "SIZE",
    "TITLE",
    "TONE",
    "ModalOrigin",
    "View",
    "field",
    "loading_view",
    "login_view",
    "order_view",
    "screen_view",
    "selected",
    "site_form",
    "site_view",
]

# Callback ids of the modals.
LOGIN, ORDER, SITE = "login", "order", "site"
# Block ids of the inputs; every input element has the action id ``_VALUE``.
EMAIL, PASSWORD, TITLE, TONE, SIZE = "email", "password", "title", "tone", "size"
CLIENT = "client"
SITE_URL, SITE_USERNAME, SITE_PASSWORD = "site_url", "site_username", "site_password"
_VALUE = "value"
_OPTION_LIMIT = 75

View = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ModalOrigin:
    """Where the command that opened a modal was typed, and its response URL for the answer.

    A global shortcut has neither: the user's id stands for the channel (their DM) and the
    response URL is empty, so the answer is posted there instead.
    """

    channel_id: str
    response_url: str

    def encode(self) -> str:
        """The modal's ``private_metadata``."""
        return json.dumps({"channel": self.channel_id, "response_url": self.response_url})

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> ModalOrigin:
        """Read back from a submitted view (Slack returns the metadata untouched)."""
        decoded = json.loads(view["private_metadata"])
        return cls(str(decoded["channel"]), str(decoded["response_url"]))


def _plain(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def _modal(
    callback_id: str, title: str, texts: SlackTexts, blocks: list[dict[str, Any]], origin: str
) -> View:
    return {
        "type": "modal",
        "callback_id": callback_id,
        "title": _plain(title),
        "close": _plain(texts.close),
        "private_metadata": origin,
        "blocks": blocks,
    }


def _input(block_id: str, label: str, element: dict[str, Any], hint: str = "") -> dict[str, Any]:
    block = {
        "type": "input",
        "block_id": block_id,
        "label": _plain(label),
        "element": {**element, "action_id": _VALUE},
    }
    if hint:
        block["hint"] = _plain(hint)
    return block


def _select(texts: SlackTexts, choices: tuple[tuple[int, str], ...]) -> dict[str, Any]:
    return {
        "type": "static_select",
        "placeholder": _plain(texts.choose),
        "options": [
            {"text": _plain(label[:_OPTION_LIMIT]), "value": str(choice)}
            for choice, label in choices
        ],
    }


def login_view(texts: SlackTexts, origin: ModalOrigin, *, email: str = "") -> View:
    """E-mail and password; the password goes from this form to the login call, nowhere else."""
    address: dict[str, Any] = {"type": "email_text_input"}
    if email:
        address["initial_value"] = email
    blocks = [
        _input(EMAIL, texts.email_label, address),
        _input(PASSWORD, texts.password_label, {"type": "plain_text_input"}, texts.password_hint),
    ]
    view = _modal(LOGIN, texts.login_title, texts, blocks, origin.encode())
    return {**view, "submit": _plain(texts.login_submit)}


def order_view(
    texts: SlackTexts, choices: OrderChoices, origin: ModalOrigin, *, title_given: str = ""
) -> View:
    """Title, tone and size at once; the sizes read with their words and cost.

    ``title_given`` fills the title in (a message the order was started from).
    """
    title: dict[str, Any] = {
        "type": "plain_text_input",
        "min_length": TITLE_MIN,
        "max_length": TITLE_MAX,
    }
    if title_given:
        title["initial_value"] = title_given
    blocks = [
        _input(TITLE, texts.title_label, title),
        _input(TONE, texts.tone_label, _select(texts, choices.tones)),
        _input(SIZE, texts.size_label, _select(texts, choices.sizes)),
    ]
    if choices.clients:
        # Offered first, as the dialog asks it first; "Müşterisiz" is chosen unless changed.
        element = _select(texts, choices.clients)
        element["initial_option"] = element["options"][0]
        blocks.insert(0, _input(CLIENT, texts.client_label, element))
    view = _modal(ORDER, texts.order_title, texts, blocks, origin.encode())
    return {**view, "submit": _plain(texts.order_submit)}


def site_view(texts: SlackTexts, words: SiteTexts, origin: ModalOrigin, client_id: int) -> View:
    """A client's site: address, username and application password in one form; the client
    rides in the metadata beside the origin."""
    blocks = [
        _input(SITE_URL, words.form_url, {"type": "url_text_input"}),
        _input(SITE_USERNAME, words.form_username, {"type": "plain_text_input", "max_length": 60}),
        _input(SITE_PASSWORD, words.form_password, {"type": "plain_text_input"}),
    ]
    metadata = {**json.loads(origin.encode()), "client": client_id}
    view = _modal(SITE, words.form_title, texts, blocks, json.dumps(metadata))
    return {**view, "submit": _plain(words.form_submit)}


def site_form(view: Mapping[str, Any]) -> SiteForm:
    """The submitted site form as the core's event."""
    client = int(json.loads(view["private_metadata"])["client"])
    return SiteForm(
        client, field(view, SITE_URL), field(view, SITE_USERNAME), field(view, SITE_PASSWORD)
    )


def loading_view(texts: SlackTexts, origin: ModalOrigin) -> View:
    """The order modal while its choices are fetched (a trigger id lasts three seconds)."""
    return screen_view(texts, Screen((paragraph(texts.loading),)), origin)


def screen_view(texts: SlackTexts, screen: Screen, origin: ModalOrigin) -> View:
    """The order modal showing a core screen instead of the form (e.g. the need to log in)."""
    return _modal(ORDER, texts.order_title, texts, render.to_blocks(screen), origin.encode())


def _state(view: Mapping[str, Any], block_id: str) -> Mapping[str, Any]:
    value: Mapping[str, Any] = view["state"]["values"].get(block_id, {}).get(_VALUE, {})
    return value


def field(view: Mapping[str, Any], block_id: str) -> str:
    """The text typed into an input; empty when left out."""
    return str(_state(view, block_id).get("value") or "")


def selected(view: Mapping[str, Any], block_id: str) -> int:
    """The id chosen in a select; 0 (no such choice) when none was."""
    option = _state(view, block_id).get("selected_option") or {}
    value = str(option.get("value", ""))
    return int(value) if value.isdigit() else 0
