"""English texts (the second language)."""

from __future__ import annotations

from bot.core.texts.calendar import ENGLISH_CALENDAR
from bot.core.texts.catalog import Texts
from bot.core.texts.login_page import ENGLISH_LOGIN_PAGE
from bot.core.texts.money import ENGLISH_MARKS
from bot.core.texts.plurals import Counted
from bot.core.texts.sites import ENGLISH_SITES

__all__ = ["ENGLISH"]

ENGLISH = Texts(
    language_name="English",
    money_marks=ENGLISH_MARKS,
    tone_names=(
        (1, "Professional"),
        (2, "Friendly"),
        (3, "Educational"),
        (4, "Persuasive"),
        (5, "Creative"),
    ),
    # The service describes its tones in Turkish; these say the same in English.
    tone_descriptions=(
        (1, "Formal, technical language"),
        (2, "Warm, personal language"),
        (3, "Instructive, explanatory language"),
        (4, "Sales-minded, motivating language"),
        (5, "Artistic, original language"),
    ),
    size_names=((1, "Short"), (2, "Medium"), (3, "Long"), (4, "Very long")),
    duration_units=(
        ("saniye", "second", "seconds"),
        ("sn", "sec", "sec"),
        ("dakika", "minute", "minutes"),
        ("dk", "min", "min"),
        ("saat", "hour", "hours"),
        ("gün", "day", "days"),
    ),
    help_intro=(
        "Makale Bot orders SEO articles from a chat: write a title, pick a tone and a size, "
        "confirm; the article arrives here when it is ready."
    ),
    help_commands=(
        ("yaz", "Order a new article"),
        ("bakiye", "Show your balance"),
        ("harcamalar", "Show your spending"),
        ("makalelerim", "List your articles; a word searches the titles"),
        ("toplu", "Order several articles: titles one per line, or separated by ;"),
        ("musteriler", "Manage your clients"),
        ("takvim", "Calendar: planned orders (e.g. every day 09:00)"),
        ("konu", "Add a topic"),
        ("giris", "Log in"),
        ("cikis", "Log out"),
        ("iptal", "Cancel what is in progress"),
        ("dil", "Choose the language"),
        ("yardim", "Help"),
    ),
    help_logged_in="You are logged in.",
    help_logged_out="You are not logged in yet: start with /giris.",
    login_private_only="For your safety, log in only in a private chat with me: send me /giris there.",
    ask_email="Type your e-mail address.",
    bad_email="That does not look like an e-mail address. Type it again, or /iptal.",
    ask_password="Type your password. I delete your message at once; it is never stored.",
    ask_password_unseen="Type your password; it is not shown on screen and never stored.",
    login_ok="Logged in. Your balance: {balance}",
    login_rejected="Wrong e-mail or password. Send /giris to try again.",
    login_invalid="The service refused these details: {reason} Send /giris to try again.",
    login_throttled="Too many failed attempts. Please try again in a few minutes.",
    logout_done="Logged out. Your session was deleted.",
    logout_nothing="You are not logged in; there is no session to end.",
    need_login="Please log in first: /giris",
    session_expired="Your session has expired. Please log in again with /giris.",
    help_logged_in_as="You are logged in: {account}.",
    password_deleted="I deleted your message, since it may hold a password.",
    password_not_deleted=(
        "I could not delete your message. If it holds a password, please delete it yourself "
        "now and change your password."
    ),
    empty_password="The password cannot be empty. Type your password, or send /iptal.",
    already_logged_in="You are logged in as {account}. Do you want to switch to another account?",
    button_switch_account="Switch account",
    button_keep_account="Keep this one",
    account_kept="Your account stays {account}.",
    too_fast=(
        "You are going too fast; some of your last messages were not handled. "
        "Please wait for the answers, then try again."
    ),
    ask_title="Type the article's title (10-255 characters).",
    title_too_short="The title needs at least 10 characters (now {length}). Type it again.",
    title_too_long="The title can have at most 255 characters (now {length}). Type it again.",
    pick_tone="Pick the writing tone:",
    pick_size="Pick the article size:",
    size_label="{name} · {words} words · {cost}",
    summary_title="Title",
    summary_bulk_titles="Titles ({count})",
    summary_tone="Tone",
    summary_size="Size",
    summary_cost="Cost",
    summary_balance="Your balance",
    summary_insufficient="Your balance is not enough for this order ({missing} short).",
    summary_pick_affordable="You can pick a size your balance covers, or cancel.",
    button_confirm="Confirm",
    button_cancel="Cancel",
    order_placed="Order placed: {title}. Cost: {cost}. I will post it here when it is ready.",
    order_placed_estimate=(
        "Order placed: {title}. Estimated time: {estimate}. Cost: {cost}. "
        "I will post it here when it is ready."
    ),
    bulk_placed=Counted(
        "{count} [article|articles] ordered. Total cost: {cost}. "
        "[It|They] will arrive here as [it finishes|they finish]."
    ),
    bulk_placed_away=Counted("{count} [article|articles] ordered. Total cost: {cost}."),
    bulk_partly_placed="{count} of {total} articles ordered ({cost}). The rest failed: {reason}",
    order_titles_refused="Titles the service refused were skipped, not charged: {titles} ({reason})",
    order_insufficient="Your balance is too low: {required} needed, {current} available.",
    order_rejected="The service refused the order: {reason}",
    order_not_charged_retry=(
        "The service is not answering; nothing was ordered or charged. "
        "You can press Confirm again in a moment."
    ),
    order_outcome_unknown=(
        "The service did not answer. I am checking whether the order went through; "
        "if it did, the article will arrive here. Please do not order it again."
    ),
    order_adopted="Your order reached the service: {title}. It will arrive here when ready.",
    order_lost=(
        "Your order did not reach the service: {title}. Check /bakiye and order again if you like."
    ),
    order_unconfirmed=(
        "I could not confirm whether your order reached the service: {title}. "
        "Check /bakiye and /makalelerim before ordering again."
    ),
    order_already_handled="This order has already been handled.",
    order_cancelled="Order cancelled.",
    order_cannot_cancel="An order already placed cannot be cancelled.",
    ask_bulk_titles="Type the titles, one per line or separated by ; (at most {limit}).",
    ask_bulk_titles_lines=(
        "Type the titles, one per line (at most {limit}); leave an empty line to finish. "
        "On one line, separate them with ; instead."
    ),
    bulk_no_titles=(
        "The list has no title to order. Type titles of 10-255 characters, one per line "
        "or separated by ;."
    ),
    file_wrong_kind="Send the titles in a .txt or .csv file.",
    file_too_large="The file is larger than 1 MB; nothing was ordered.",
    file_unreadable="The file could not be read: it must be plain text (.txt) or CSV (.csv). Nothing was ordered.",
    file_no_titles="The file has no title that can be ordered.",
    file_too_many="The file has more than {limit} titles; you can send at most {limit}. Nothing was ordered.",
    file_refused_titles="Titles left out ({count})",
    file_refused_more=Counted("and {count} more [title|titles]"),
    file_title_short="too short (at least 10 characters)",
    file_title_long="too long (at most 255 characters)",
    file_title_duplicate="already in the list",
    file_unknown_tone="tone not recognised",
    file_unknown_size="size not recognised",
    bulk_too_many="At most {limit} titles (now {count}).",
    balance="Your balance: {balance}",
    spending_header="Your spending",
    spending_this_month="This month: {amount}",
    spending_last_month="Last month: {amount}",
    spending_size_line=Counted("{size}: {count} [article|articles]"),
    spending_average="Average per article: {amount}",
    spending_none="You have no charged orders yet.",
    low_balance="Note: your balance ({balance}) will not cover your next {size} article ({cost}).",
    articles_empty="You have no articles yet. Order your first with /yaz.",
    articles_header="Your articles (page {page}/{pages})",
    article_line="{number}. {title} — {status}",
    button_open="Open {number}",
    button_zip_page="📦 This page (.zip)",
    button_zip_recent="📦 Last 30 days (.zip)",
    zip_page_name="articles-page-{page}.zip",
    zip_recent_name="articles-last-30-days-{date}.zip",
    zip_preparing=Counted("Archiving {count} [article|articles]…"),
    zip_caption=Counted("{count} [article|articles], each as .md and .html"),
    zip_left_out=Counted("{count} [article|articles] without a date [was|were] left out."),
    zip_nothing="You have no finished articles in this range.",
    zip_too_large="The archive is over 50 MB; download the articles page by page.",
    button_order_again="Order again",
    button_other_tone="Other tone",
    button_previous="◀ Previous",
    button_next="Next ▶",
    article_not_ready="This article is not ready yet.",
    status_pending="Queued",
    status_processing="In progress {progress}%",
    status_finished="Ready",
    status_failed="Failed",
    status_unknown="Unknown",
    ask_topic="Type the topic you want to add.",
    topic_bad="A topic needs 2-255 characters. Type it again, or /iptal.",
    topic_added="Topic added: {topic}",
    # Finding and sharing articles: /makalelerim with a word, Telegram's inline mode.
    search_found=Counted("Found {count} [article|articles] for “{query}”."),
    search_first_shown="Showing the first {shown}; add another word to narrow it down.",
    search_nothing="Nothing found for “{query}”.",
    search_hint="Try another word of the title; for all your articles, type just /makalelerim.",
    search_newest_only=(
        "The search covered only your newest {count} articles: the service lists no older ones."
    ),
    help_inline=(
        "To share an article in another chat, type the bot's username (with @) there: your "
        "articles are listed, and a word narrows them down."
    ),
    help_no_inline=(
        "This chat has no inline mode; to find an article, type /makalelerim and a word of "
        "its title."
    ),
    share_words="{words} words",
    share_description="{size} · {date}",
    share_date_format="%Y-%m-%d",
    button_read_all="Read it all",
    button_inline_login="Log in",
    share_gone="This link is not valid; ask whoever shared it to share the article again.",
    share_unavailable="This article cannot be opened now; ask whoever shared it to share it again.",
    progress="In progress: {title} — {progress}%",
    progress_unknown="In progress: {title}",
    article_ready="Your article is ready: {title}",
    table_note="📊 Table ({columns}): see the attached .md and .html files.",
    article_file_caption="{title} (Markdown file)",
    article_html_caption="{title} (HTML file, ready for a CMS)",
    article_failed="Your article could not be written: {title}. Reason: {reason}",
    article_unsendable=(
        "Your article is ready but could not be posted here: {title}. "
        "Open it with /makalelerim to get it as a file."
    ),
    article_expired="Your article did not arrive in time: {title}. See /makalelerim for its state.",
    deliver_after_login="Your pending articles will arrive here when they are ready.",
    cancel_done="Cancelled.",
    cancel_nothing="Nothing to cancel.",
    cancel_submitted_note="Orders already placed cannot be cancelled; they will arrive here.",
    pick_language="Dil seçin / Choose a language:",
    language_set="Language: English.",
    unknown_input="I did not understand that. Send /yardim for the commands.",
    unknown_command="I do not know that command. Send /yardim for the commands.",
    stale_button="This button is no longer valid.",
    not_your_button="This button is not yours.",
    service_down="The article service is not answering. Please try again in a moment.",
    service_busy="The article service is busy. Please try again in a moment.",
    service_confused="The article service sent an unexpected answer. Please try again later.",
    something_broke="Something went wrong. Please try again.",
    not_allowed="Sorry, you may not use this bot. Please ask the team that runs it for access.",
    alert_upstream_down=Counted(
        "The article service has been unreachable for {minutes} [minute|minutes]. "
        "Last error: {detail}",
        by="minutes",
    ),
    alert_undelivered="A paid article could not be delivered (job {detail}).",
    alert_order_unconfirmed="An order whose outcome could not be confirmed was reported to its user ({detail}).",
    alert_login_guard=(
        "The bot-wide login guard is engaged: {detail} failed logins lately. "
        "Nobody can log in for a while."
    ),
    alert_started="Makale Bot started, version {detail}.",
    alert_cleared="Cleared: {detail}",
    status_report=(
        "Version: {version}\n"
        "Uptime: {uptime}\n"
        "Pending jobs: {pending} (oldest: {oldest})\n"
        "Delivered in the last hour: {delivered}\n"
        "Last service error: {last_error}"
    ),
    status_none="none",
    choose_by_number="Type a number from {first} to {last}, or the name of a choice.",
    choose_the_number="Type {number}, or the name of the choice.",
    shell_waiting=Counted("Waiting for {count} [article|articles]; press Ctrl-C again to quit."),
    shell_goodbye="Goodbye!",
    home_intro=(
        "Makale Bot orders SEO articles with your account at the article service. Log in to start."
    ),
    home_recent="Your latest articles",
    button_log_in="Log in",
    button_new_article="New article",
    shell_file_missing="No such file: {path}",
    # Clients (for agencies).
    client_name_length="A client's name takes {low}-{high} characters (yours has {length}).",
    clients_header="Your clients",
    clients_none="You have no clients yet. Add them to keep your orders apart per client.",
    client_defaults_line="defaults: {choices}",
    button_add_client="Add client",
    button_client_defaults="Defaults",
    button_client_remove="Remove",
    ask_client_name="Type the client's name ({low}-{high} characters).",
    client_name_taken="You already have a client named “{name}”. Type another name, or /iptal.",
    clients_full=(
        "You can have at most {most} clients, so that they all fit on one screen. To add "
        "another, remove one from the /musteriler list."
    ),
    client_added="{name} added. Set a default tone and size with /musteriler.",
    client_removed="{name} removed; its past orders keep its name.",
    confirm_remove_client="Remove {name}? Its past orders keep its name; its plans are paused.",
    button_yes_remove="Yes, remove",
    button_keep="Keep",
    client_pick_default_tone="Choose the default tone for {name}.",
    client_pick_default_size="Choose the default size for {name}.",
    client_defaults_saved="Defaults for {name}: {choices}.",
    ask_which_client="Which client is it for?",
    button_no_client="No client",
    summary_client="Client",
    button_change_choices="Change",
    client_removed_mark="{name} (removed)",
    button_articles_of_client="Only {name}",
    articles_of_client="Orders for {name}",
    # Spending per client, and the CSV of every order.
    spending_clients_header="Per client (this month / last month)",
    spending_client_line="{name}: {this_month} / {last_month}",
    button_csv="CSV",
    csv_columns=("Date", "Client", "Title", "Tone", "Size", "Cost", "State"),
    csv_filename="orders.csv",
    csv_caption="Your orders ({count})",
    csv_states=(
        ("pending", "Being written"),
        ("finished", "Ready"),
        ("delivered", "Delivered"),
        ("failed", "Failed"),
        ("expired", "Timed out"),
        ("unsendable", "Could not be sent"),
    ),
    # The quality card after each article.
    card_header="Quality card",
    card_words="Words: {count} (ordered: {range}) {mark}",
    card_words_no_range="Words: {count}",
    card_reading="Reading time: {minutes} min",
    card_headings="Headings: {count}",
    card_readability="Readability (Ateşman): {score} · {band}",
    card_bands=("very easy", "easy", "moderate", "hard", "very hard"),
    card_title_words="Title words: {words}",
    calendar=ENGLISH_CALENDAR,
    login_page=ENGLISH_LOGIN_PAGE,
    sites=ENGLISH_SITES,
)
