"""The fields every language must fill; ``{name}`` placeholders are filled with ``str.format``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Texts"]


@dataclass(frozen=True, slots=True)
class Texts:
    """Every text the bot shows, in one language."""

    language_name: str

    # Help.
    help_intro: str
    help_commands: tuple[tuple[str, str], ...]
    help_logged_in: str
    help_logged_out: str

    # Login.
    login_private_only: str
    ask_email: str
    bad_email: str
    ask_password: str
    login_ok: str
    login_rejected: str
    login_invalid: str
    login_throttled: str
    logout_done: str
    logout_nothing: str
    need_login: str
    session_expired: str

    # Ordering.
    ask_title: str
    title_too_short: str
    title_too_long: str
    pick_tone: str
    pick_size: str
    size_label: str
    summary_title: str
    summary_bulk_titles: str
    summary_tone: str
    summary_size: str
    summary_cost: str
    summary_balance: str
    summary_insufficient: str
    button_confirm: str
    button_cancel: str
    order_placed: str
    order_placed_estimate: str
    bulk_placed: str
    bulk_partly_placed: str
    order_insufficient: str
    order_rejected: str
    order_not_charged_retry: str
    order_outcome_unknown: str
    order_adopted: str
    order_lost: str
    order_unconfirmed: str
    order_already_handled: str
    order_cancelled: str
    order_cannot_cancel: str
    ask_bulk_titles: str
    bulk_bad_lines: str
    bulk_too_many: str

    # Balance, articles, topics.
    balance: str
    spending_header: str
    spending_this_month: str
    spending_last_month: str
    spending_size_line: str
    spending_average: str
    spending_none: str
    low_balance: str
    articles_empty: str
    articles_header: str
    article_line: str
    button_open: str
    button_previous: str
    button_next: str
    article_not_ready: str
    status_pending: str
    status_processing: str
    status_finished: str
    status_failed: str
    status_unknown: str
    ask_topic: str
    topic_bad: str
    topic_added: str

    # Delivery.
    progress: str
    progress_unknown: str
    article_ready: str
    article_file_caption: str
    article_failed: str
    article_expired: str
    article_unsendable: str
    deliver_after_login: str

    # Cancel, language, fallbacks.
    cancel_done: str
    cancel_nothing: str
    cancel_submitted_note: str
    pick_language: str
    language_set: str
    unknown_input: str
    unknown_command: str
    stale_button: str
    not_your_button: str
    service_down: str
    service_busy: str
    service_confused: str
    something_broke: str
