"""/yaz, /toplu and a file of titles: the order wizard and each draft kind's checkout.

A draft moves CLIENT -> TITLE -> TONE -> SIZE -> READY through the wizard's steps
(``steps``, ``titles``, ``form``, ``summary``), the same for every kind. At READY the draft's
checkout (``checkout``, one per ``DraftKind``, registered by ``bot.bootstrap``) shows what is
confirmed and says what ``Onayla`` does: an article's (``article``) and a batch's (``batch``)
hand the draft to ``bot.core.ordering.purchase``, the one place that charges (READY -> SUBMITTED,
once); a plan's lives in ``bot.core.plans``. See order.mmd beside this package.
"""

from bot.core.dialogs.order.article import ArticleCheckout
from bot.core.dialogs.order.batch import BatchCheckout
from bot.core.dialogs.order.checkout import Checkout, Summary, register_checkouts
from bot.core.dialogs.order.drafting import new_draft
from bot.core.dialogs.order.form import choices, form_submitted
from bot.core.dialogs.order.paid import confirmed
from bot.core.dialogs.order.screens import BULK_LIMIT, list_prompt, titles_heading
from bot.core.dialogs.order.steps import (
    choices_changed,
    client_picked,
    order_aborted,
    size_picked,
    start_again,
    tone_picked,
)
from bot.core.dialogs.order.summary import summary_again
from bot.core.dialogs.order.titles import (
    bulk_titles_entered,
    file_sent,
    start_bulk,
    start_order,
    take_bulk_titles,
    title_entered,
)

__all__ = [
    "BULK_LIMIT",
    "ArticleCheckout",
    "BatchCheckout",
    "Checkout",
    "Summary",
    "bulk_titles_entered",
    "choices",
    "choices_changed",
    "client_picked",
    "confirmed",
    "file_sent",
    "form_submitted",
    "list_prompt",
    "new_draft",
    "order_aborted",
    "register_checkouts",
    "size_picked",
    "start_again",
    "start_bulk",
    "start_order",
    "summary_again",
    "take_bulk_titles",
    "title_entered",
    "titles_heading",
    "tone_picked",
]
