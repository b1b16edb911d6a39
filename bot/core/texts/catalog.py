"""The fields every language must fill; ``{name}`` placeholders are filled with ``str.format``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from bot.api import Size, Tone
from bot.core.texts.calendar import CalendarTexts
from bot.core.texts.login_page import LoginPageTexts
from bot.core.texts.money import format_tl
from bot.core.texts.sites import SiteTexts
from bot.core.texts.turkish import fold

__all__ = ["Texts"]

# A number or a range ("17-25"), then a word: the unit of an estimate.
_AMOUNT_AND_UNIT = re.compile(r"(\d+(?:[.,]\d+)?(?:\s*-\s*\d+(?:[.,]\d+)?)?\+?)(\s*)([^\W\d_]+)")


@dataclass(frozen=True, slots=True)
class Texts:
    """Every text the bot shows, in one language."""

    language_name: str
    # Thousands mark, then decimal mark: "1.234,50 TL" or "1,234.50 TL".
    money_marks: str
    # Names by id where this language differs from the service's Turkish ones.
    tone_names: tuple[tuple[int, str], ...]
    # This language's own descriptions of the tones by id; None keeps the service's (Turkish).
    tone_descriptions: tuple[tuple[int, str], ...] | None
    size_names: tuple[tuple[int, str], ...]
    # The service's Turkish time units, each with this language's singular and plural.
    duration_units: tuple[tuple[str, str, str], ...]

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
    ask_password_unseen: str
    login_ok: str
    login_rejected: str
    login_invalid: str
    login_throttled: str
    logout_done: str
    logout_nothing: str
    need_login: str
    session_expired: str
    help_logged_in_as: str
    password_deleted: str
    password_not_deleted: str
    empty_password: str
    already_logged_in: str
    button_switch_account: str
    button_keep_account: str
    account_kept: str
    too_fast: str

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
    summary_pick_affordable: str
    button_confirm: str
    button_cancel: str
    order_placed: str
    order_placed_estimate: str
    bulk_placed: str
    # The same for a plan's channel or group: the articles go there, not here.
    bulk_placed_away: str
    bulk_partly_placed: str
    # Titles of an order that the service refused; the others were ordered.
    order_titles_refused: str
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
    ask_bulk_titles_lines: str
    bulk_no_titles: str
    file_wrong_kind: str
    file_too_large: str
    file_unreadable: str
    file_no_titles: str
    file_too_many: str
    file_refused_titles: str
    file_refused_more: str
    file_title_short: str
    file_title_long: str
    file_title_duplicate: str
    file_unknown_tone: str
    file_unknown_size: str
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
    button_zip_page: str
    button_zip_recent: str
    zip_page_name: str
    zip_recent_name: str
    zip_preparing: str
    zip_caption: str
    zip_left_out: str
    zip_nothing: str
    zip_too_large: str
    button_order_again: str
    button_other_tone: str
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

    # Finding and sharing articles: /makalelerim with a word, Telegram's inline mode.
    search_found: str
    search_first_shown: str
    search_nothing: str
    search_hint: str
    search_newest_only: str
    help_inline: str
    help_no_inline: str
    share_words: str
    share_description: str
    share_date_format: str
    button_read_all: str
    button_inline_login: str
    share_gone: str
    share_unavailable: str

    # Delivery.
    progress: str
    progress_unknown: str
    article_ready: str
    # Where a chat without tables shows one: {columns} are its header cells.
    table_note: str
    article_file_caption: str
    article_html_caption: str
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

    # Operators: the allow lists, the admin chat's alerts and /durum.
    not_allowed: str
    alert_upstream_down: str
    alert_undelivered: str
    alert_order_unconfirmed: str
    alert_login_guard: str
    alert_started: str
    alert_cleared: str
    status_report: str
    status_none: str

    # The terminal chat.
    choose_by_number: str
    choose_the_number: str
    shell_waiting: str
    shell_goodbye: str
    shell_file_missing: str
    # The home screen (Slack's Home tab).
    home_intro: str
    home_recent: str
    button_log_in: str
    button_new_article: str

    # Clients (for agencies).
    client_name_length: str
    clients_header: str
    clients_none: str
    client_defaults_line: str
    button_add_client: str
    button_client_defaults: str
    button_client_remove: str
    ask_client_name: str
    client_name_taken: str
    clients_full: str
    client_added: str
    client_removed: str
    confirm_remove_client: str
    button_yes_remove: str
    button_keep: str
    client_pick_default_tone: str
    client_pick_default_size: str
    client_defaults_saved: str
    ask_which_client: str
    button_no_client: str
    summary_client: str
    button_change_choices: str
    client_removed_mark: str
    button_articles_of_client: str
    articles_of_client: str

    # Spending per client, and the CSV of every order.
    spending_clients_header: str
    spending_client_line: str
    button_csv: str
    csv_columns: tuple[str, ...]
    csv_filename: str
    csv_caption: str
    csv_states: tuple[tuple[str, str], ...]

    # The quality card after each article.
    card_header: str
    card_words: str
    card_words_no_range: str
    card_reading: str
    card_headings: str
    card_readability: str
    card_bands: tuple[str, str, str, str, str]
    card_title_words: str

    # The content calendar (/takvim).
    calendar: CalendarTexts
    # The login by link, where no password may be typed in the chat.
    login_page: LoginPageTexts
    # Clients' WordPress sites.
    sites: SiteTexts

    def money(self, amount: Decimal) -> str:
        """An amount of Turkish lira written this language's way."""
        return format_tl(amount, marks=self.money_marks)

    def tone_name(self, tone: Tone) -> str:
        """The tone's name in this language."""
        return dict(self.tone_names).get(tone.id, tone.name)

    def tone_description(self, tone: Tone) -> str:
        """What the tone is like, in this language; empty where only the service's would say."""
        if self.tone_descriptions is None:
            return tone.description
        return dict(self.tone_descriptions).get(tone.id, "")

    def size_name(self, size: Size) -> str:
        """The size's name in this language."""
        return dict(self.size_names).get(size.id, size.name)

    def duration(self, text: str) -> str:
        """The service's estimate ("17-25 saniye") with its units in this language."""
        units = {turkish: (one, many) for turkish, one, many in self.duration_units}

        def unit(match: re.Match[str]) -> str:
            amount, space, word = match.groups()
            names = units.get(fold(word))
            if names is None:
                return match.group(0)
            unit_name = names[0] if amount == "1" else names[1]
            # The service writes a Turkish decimal comma ("1,5 saat").
            return f"{amount.replace(',', self.money_marks[1])}{space}{unit_name}"

        return _AMOUNT_AND_UNIT.sub(unit, text)
