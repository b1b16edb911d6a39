"""What answers what, one entry each: the commands, the awaited replies and the buttons.

The dialogs never import this module: it imports them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.core.clients import dialog as clients
from bot.core.conversation import actions
from bot.core.conversation.action_data import ButtonAction, split_data
from bot.core.conversation.events import Command, Press, Text
from bot.core.dialogs import (
    articles,
    balance,
    cancel,
    help,
    language,
    login,
    order,
    reorder,
    sites,
    spending,
    status,
    topic,
)
from bot.core.plans import listing as plan_listing
from bot.core.plans import making as plan_making
from bot.core.plans import summary as plan_summary
from bot.core.sharing.links import start_with_payload
from bot.core.turn import Turn
from storage.states import Awaiting

__all__ = ["COMMANDS", "PRESSES", "REPLIES", "Pressed", "entry_of", "parse_action"]

A = TypeVar("A", bound=ButtonAction)

CommandHandler = Callable[[Turn, Command], Awaitable[None]]
ReplyHandler = Callable[[Turn, Text], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Pressed(Generic[A]):
    """A kind of button: its action, which writes the button's data and reads it back, and
    the dialog step that answers a press."""

    kind: type[A]
    answer: Callable[[Turn, A, Press], Awaitable[None]]


COMMANDS: dict[str, CommandHandler] = {
    # A deep link's payload (a shared article, the inline answer's login) comes with /start.
    "start": start_with_payload,
    "yardim": help.show_help,
    "giris": login.start_login,
    "cikis": login.log_out,
    "yaz": order.start_order,
    "toplu": order.start_bulk,
    "bakiye": balance.show_balance,
    "harcamalar": spending.show_spending,
    "makalelerim": articles.list_articles,
    "konu": topic.start_topic,
    "iptal": cancel.cancel,
    "dil": language.choose_language,
    "takvim": plan_making.start_plan,
    "musteriler": clients.list_clients,
    # Only in the admin chat; anywhere else it answers as an unknown command does.
    "durum": status.show_status,
}

REPLIES: dict[Awaiting, ReplyHandler] = {
    Awaiting.EMAIL: login.email_entered,
    Awaiting.PASSWORD: login.password_entered,
    Awaiting.TITLE: order.title_entered,
    Awaiting.BULK_TITLES: order.bulk_titles_entered,
    Awaiting.TOPIC: topic.topic_entered,
    Awaiting.PLAN_TITLES: order.bulk_titles_entered,
    Awaiting.CLIENT_NAME: clients.client_name_entered,
    Awaiting.SITE_URL: sites.site_url_entered,
    Awaiting.SITE_USERNAME: sites.site_username_entered,
    Awaiting.SITE_PASSWORD: sites.site_password_entered,
}

# Each kind's code is in the data of buttons already sent: an entry's kind keeps its code.
# No annotation: mypy infers each entry's own kind, and so checks that its step takes it.
PRESSES = (
    # The order: a draft's own buttons, checked against the draft.
    Pressed(actions.PickClient, order.client_picked),
    Pressed(actions.ChangeChoices, order.choices_changed),
    Pressed(actions.PickTone, order.tone_picked),
    Pressed(actions.PickSize, order.size_picked),
    Pressed(actions.Confirm, order.confirmed),
    Pressed(actions.Abort, order.order_aborted),
    # A plan, while it is made and once it is saved.
    Pressed(actions.SavePlan, plan_summary.plan_saved),
    Pressed(actions.PickTarget, plan_making.target_picked),
    Pressed(actions.PickSite, plan_making.target_picked),
    Pressed(actions.PickSitePost, plan_making.site_post_picked),
    Pressed(actions.PlanAction, plan_listing.plan_pressed),
    # The article list, its articles and an order again of one.
    Pressed(actions.ShowPage, articles.page_shown),
    Pressed(actions.OpenArticle, articles.article_opened),
    Pressed(actions.ExportArticles, articles.archive_pressed),
    Pressed(actions.ClientArticles, articles.client_articles_shown),
    Pressed(actions.ClientSearch, articles.client_search_shown),
    Pressed(actions.OrderAgain, reorder.again_pressed),
    Pressed(actions.OtherTone, reorder.again_pressed),
    Pressed(actions.PublishDraft, sites.publish_pressed),
    # /musteriler: the clients, their defaults and their sites.
    Pressed(actions.AddClient, clients.add_pressed),
    Pressed(actions.ClientDefaults, clients.defaults_pressed),
    Pressed(actions.ClientTone, clients.default_tone_picked),
    Pressed(actions.ClientSize, clients.default_size_picked),
    Pressed(actions.RemoveClient, clients.remove_pressed),
    Pressed(actions.ClientSite, sites.site_pressed),
    Pressed(actions.ConnectSite, sites.site_pressed),
    Pressed(actions.RemoveSite, sites.site_pressed),
    # The account: its language, a login to another one, its spending.
    Pressed(actions.ChooseLanguage, language.language_chosen),
    Pressed(actions.SwitchAccount, login.switch_chosen),
    Pressed(actions.SpendingCsv, spending.csv_pressed),
)

_BY_CODE: dict[str, Pressed[Any]] = {entry.kind.code: entry for entry in PRESSES}


def parse_action(data: str) -> ButtonAction | None:
    """The action in button data, or None when it is not one this bot wrote."""
    split = split_data(data)
    if split is None:
        return None
    code, values = split
    entry = _BY_CODE.get(code)
    return None if entry is None else entry.kind.decode(values)


def entry_of(action: ButtonAction) -> Pressed[Any]:
    """The entry of an action's kind (one ``parse_action`` read)."""
    return _BY_CODE[action.code]
