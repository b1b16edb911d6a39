"""Routes each chat event to its dialog and turns known failures into plain messages.

The tables at the end show what answers what: commands, awaited replies,
and (in ``_pressed``) button actions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlmodel import Session

from bot.api import ArticleApiError, RateLimited, ServiceUnavailable, TokenRejected
from bot.core.actions import (
    Abort,
    Action,
    AddClient,
    ChangeChoices,
    ChooseLanguage,
    ClientArticles,
    ClientDefaults,
    ClientSearch,
    ClientSize,
    ClientTone,
    Confirm,
    ExportArticles,
    OpenArticle,
    OrderAgain,
    OtherTone,
    OwnedAction,
    PickClient,
    PickSite,
    PickSize,
    PickTarget,
    PickTone,
    PlanAction,
    RemoveClient,
    SavePlan,
    ShowPage,
    SpendingCsv,
    SwitchAccount,
    parse_action,
)
from bot.core.dialogs import (
    articles,
    balance,
    cancel,
    clients,
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
from bot.core.errors import DraftClosed, LoginThrottled, NotLoggedIn, SessionExpired
from bot.core.events import (
    Command,
    Event,
    LoginForm,
    OrderForm,
    Origin,
    Press,
    SiteForm,
    Text,
    Unsupported,
    Upload,
    UserKey,
)
from bot.core.forms import OrderChoices
from bot.core.home import home_screen
from bot.core.plans import listing as plan_listing
from bot.core.plans import making as plan_making
from bot.core.plans import summary as plan_summary
from bot.core.presenter import Presenter, present
from bot.core.screens import Effect, Screen
from bot.core.sharing import InlineAnswer, inline_answer, start_with_payload
from bot.core.texts import LANGUAGES
from bot.core.turn import Admission, AtOnce, CoreServices, Turn, language_of
from storage import Transaction, bookkeeping, drafts, jobs, targets, users
from storage.models import ChatUser
from storage.states import Awaiting, JobStatus

__all__ = ["COMMANDS", "Admission", "Conversations", "OrderChoices"]

log = logging.getLogger(__name__)
T = TypeVar("T")

CommandHandler = Callable[[Turn, Command], Awaitable[None]]
ReplyHandler = Callable[[Turn, Text], Awaitable[None]]


class Conversations:
    """The core's entry point for every adapter: one event in, the effects that answer it out."""

    def __init__(self, services: CoreServices) -> None:
        self.services = services

    async def answer(
        self,
        origin: Origin,
        event: Event,
        presenter: Presenter,
        admission: Admission | None = None,
    ) -> None:
        """Answer one event of one chat user, shown through the adapter's ``presenter``;
        ``admission`` is what the event's replay check read (``admit``), if it read it."""

        async def at_once(effect: Effect) -> None:
            await present(presenter, (effect,))

        turn = await self._turn(origin, event, at_once, admission)
        await present(presenter, turn.effects)
        await _then(turn)

    async def handle(
        self, origin: Origin, event: Event, *, at_once: AtOnce | None = None
    ) -> list[Effect]:
        """The effects that answer one event (the caller shows them); ``at_once`` carries out
        urgent effects early."""
        turn = await self._turn(origin, event, at_once)
        await _then(turn)
        return turn.effects

    async def _turn(
        self,
        origin: Origin,
        event: Event,
        at_once: AtOnce | None,
        admission: Admission | None = None,
    ) -> Turn:
        turn = await self._started(origin, admission, at_once)
        await _answering(turn, type(event).__name__, _dispatch(turn, event))
        return turn

    def refusal(self, origin: Origin, event: Event | None = None) -> list[Effect] | None:
        """None when the user may use the bot; else what to show them (nothing within the hour)
        and, where ``event`` carries a password, its deletion.

        Asked by the adapters before anything else, so a refused user costs no upstream call,
        no database row and no count toward any limit.
        """
        return self.services.gate.refusal(origin, event)

    def admits(self, origin: Origin) -> bool:
        """Whether the user may use the bot; asks nothing but the allow lists."""
        return self.services.gate.admits(origin)

    async def language(self, origin: Origin) -> str:
        """The language the user is answered in (for what an adapter shows by itself)."""
        return language_of(await self._user(origin), origin, self.services.default_language)

    async def order_form(self, origin: Origin) -> OrderChoices | list[Effect]:
        """The tones and sizes for an order form, or the answer to show instead (log in first)."""
        turn = Turn(self.services, origin, await self._user(origin))
        choices = await _answering(turn, "order form", order.choices(turn))
        return turn.effects if choices is None else choices

    async def inline_articles(
        self, origin: Origin, query: str, offset: str, admission: Admission | None = None
    ) -> InlineAnswer:
        """The user's finished articles to share into any chat (Telegram's inline mode)."""
        turn = await self._started(origin, admission)
        answer = await _answering(turn, "inline query", inline_answer(turn, query, offset))
        # A failure there has no chat to be told in: the user sees no results.
        return answer or InlineAnswer()

    async def home(self, origin: Origin) -> Screen:
        """The user's home screen (``bot.core.home``)."""
        return await home_screen(Turn(self.services, origin, await self._user(origin)))

    async def unfinished_jobs(self, key: UserKey) -> int:
        """How many of the user's orders are still to be delivered."""

        def count(session: Session) -> int:
            user = users.get_or_create_user(
                session, platform=key.platform, workspace=key.workspace, external_id=key.external_id
            )
            assert user.id is not None
            waiting = (JobStatus.PENDING, JobStatus.FINISHED)
            return len(jobs.jobs_of_user(session, user_id=user.id, statuses=waiting))

        return await self.services.db.run(count)

    async def chat_reopened(self, origin: Origin) -> None:
        """The user's chat takes messages again (WhatsApp's window): their finished articles
        go out at the next round, not after their back-off."""
        user_id = (await self._user(origin)).id
        assert user_id is not None
        now = self.services.clock()
        await self.services.db.run(lambda s: jobs.hurry_finished_jobs(s, user_id=user_id, now=now))

    async def in_dialog(self, origin: Origin) -> bool:
        """Whether a dialog is in progress: an input awaited, or an order not yet placed."""
        user = await self._user(origin)
        user_id = user.id
        assert user_id is not None
        if user.awaiting is not None:
            return True
        return await self.services.db.run(
            lambda s: drafts.open_draft(s, user_id=user_id) is not None
        )

    async def _user(self, origin: Origin) -> ChatUser:
        return await self.services.db.run(lambda s: _load_user(s, origin))

    async def _started(
        self, origin: Origin, admission: Admission | None, at_once: AtOnce | None = None
    ) -> Turn:
        """A turn of the user, with what the update's replay check read where it read it."""
        if admission is None:
            return Turn(self.services, origin, await self._user(origin), at_once)
        return Turn(self.services, origin, admission.user, at_once, access=admission.access)

    async def chat_joined(
        self,
        origin: Origin,
        *,
        chat_id: str,
        title: str,
        joined: bool,
        admission: Admission | None = None,
    ) -> None:
        """Remember a channel or group the user added the bot to, as a target of their plans;
        one it was removed from is forgotten for everyone."""
        user_id = (admission.user if admission else await self._user(origin)).id
        assert user_id is not None
        now, platform = self.services.clock(), origin.chat.platform

        def record(session: Session) -> None:
            if joined:
                targets.record_target(
                    session,
                    user_id=user_id,
                    platform=platform,
                    chat_id=chat_id,
                    title=title,
                    now=now,
                )
            else:
                targets.drop_chat(session, platform=platform, chat_id=chat_id)

        await self.services.db.run(record)

    async def first_time(self, source: str, update_id: str) -> bool:
        """Whether a platform update is new; a replayed one must have no effect.

        The commit does not wait for the disk: whatever the update changes is committed after
        it, by commits that wait, so a power cut loses the update's id only with its effects,
        and the update, delivered again, is answered as the first time. An answer waits for
        one write less.
        """
        return await self.services.db.run_brief(
            lambda transaction: bookkeeping.mark_processed(
                transaction, source=source, update_id=update_id
            )
        )

    async def admit(self, source: str, update_id: str, origin: Origin) -> Admission | None:
        """``first_time`` with what the update's answer reads first (the chat user and their
        access token) read in the same transaction, so that the answer begins with no round
        trip of its own. None when the update was seen before. A user's first update is
        admitted on a second try, through the ORM, which makes their row."""
        accounts = self.services.accounts

        def admit(transaction: Transaction) -> Admission | None:
            if not bookkeeping.mark_processed(transaction, source=source, update_id=update_id):
                return None
            found = accounts.with_user_in(transaction, origin.user)
            if found is not None:
                user, access = found
                _keep_language(transaction, user, origin)
                return Admission(user, access)
            if not isinstance(transaction, Session):
                raise _NewUser
            return Admission(_load_user(transaction, origin), None)

        try:
            return await self.services.db.run_brief(admit)
        except _NewUser:
            # Its row is made through the ORM, and in the same transaction as the update's
            # mark: had the two been apart, a failure between them would leave the update
            # marked and unanswered, its redelivery dropped as a replay.
            return await self.services.db.run(admit, synced=False)


class _NewUser(Exception):
    """The update's user has no row yet, and the brief transaction cannot make one: it rolls
    back."""


def _load_user(session: Session, origin: Origin) -> ChatUser:
    """The origin's chat user, created on first sight, with the client's language kept."""
    key = origin.user
    user = users.get_or_create_user(
        session, platform=key.platform, workspace=key.workspace, external_id=key.external_id
    )
    _keep_language(session, user, origin)
    return user


def _keep_language(transaction: Transaction, user: ChatUser, origin: Origin) -> None:
    """Take the client's language for a user who has chosen none, so that delivery (which
    has no client to ask) speaks it too."""
    hinted = (origin.language_hint or "")[:2].lower()
    if user.locale is None and hinted in LANGUAGES:
        assert user.id is not None
        users.set_locale(transaction, user_id=user.id, locale=hinted)
        user.locale = hinted


async def _then(turn: Turn) -> None:
    """Do the work a turn left for after its answer; a failure there is logged, not shown."""
    for work in turn.later:
        try:
            await work()
        # The answer is out already: what follows it must not turn into an error message.
        except Exception:
            log.exception("after answering chat user %s", turn.user_id)


async def _answering(turn: Turn, what: str, work: Awaitable[T]) -> T | None:
    """Run a dialog's work; a known failure becomes a plain message, any other is logged."""
    try:
        return await work
    except DraftClosed:
        turn.notice(turn.texts.stale_button)
    except SessionExpired:
        turn.say(turn.texts.session_expired)
    except (NotLoggedIn, TokenRejected):
        turn.say(turn.texts.need_login)
    except LoginThrottled:
        turn.say(turn.texts.login_throttled)
    except RateLimited:
        turn.say(turn.texts.service_busy)
    except ServiceUnavailable:
        turn.say(turn.texts.service_down)
    except ArticleApiError as err:
        log.warning("upstream answered %s: %s", type(err).__name__, err)
        turn.say(turn.texts.service_confused)
    except Exception:
        # The one boundary of every dialog: the effects so far (a password's deletion among
        # them) must still be carried out, and the user told, whatever went wrong.
        log.exception("%s of chat user %s failed", what, turn.user_id)
        turn.say(turn.texts.something_broke)
    return None


async def _dispatch(turn: Turn, event: Event) -> None:
    match event:
        case Command(name=name, message_id=message_id):
            if turn.user.awaiting in (Awaiting.PASSWORD, Awaiting.SITE_PASSWORD):
                # It may be the password itself, typed with a leading slash.
                await turn.delete(message_id)
            # A command ends whatever input was awaited, then runs.
            turn.interrupted = turn.user.awaiting
            if turn.user.awaiting is not None:
                await turn.expect(None)
            handler = COMMANDS.get(name.lower())
            if handler is None:
                turn.say(turn.texts.unknown_command)
                return
            await handler(turn, event)
        case Text():
            awaited = turn.user.awaiting
            reply = REPLIES.get(awaited) if awaited is not None else None
            if reply is None:
                turn.say(turn.texts.unknown_input)
                return
            await reply(turn, event)
        case Press(data=data):
            await _pressed(turn, event, data)
        case LoginForm():
            await login.login_submitted(turn, event)
        case OrderForm():
            await order.form_submitted(turn, event)
        case SiteForm():
            await sites.site_form_submitted(turn, event)
        case Upload():
            await order.file_sent(turn, event)
        case Unsupported():
            turn.say(turn.texts.unknown_input)


async def _pressed(turn: Turn, press: Press, data: str) -> None:
    action = parse_action(data)
    # In a group everyone sees the buttons; a draft's own are checked against the draft.
    if isinstance(action, OwnedAction) and action.owner != turn.user_id:
        turn.notice(turn.texts.not_your_button)
        return
    match action:
        case PickTone() as action:
            await order.tone_picked(turn, action, press)
        case PickSize() as action:
            await order.size_picked(turn, action, press)
        case Confirm() as action:
            await order.confirmed(turn, action, press)
        case Abort() as action:
            await order.order_aborted(turn, action, press)
        case ShowPage() as action:
            await articles.page_shown(turn, action, press)
        case OpenArticle() as action:
            await articles.article_opened(turn, action, press)
        case ExportArticles() as action:
            await articles.archive_pressed(turn, action, press)
        case OrderAgain() | OtherTone() as action:
            await reorder.again_pressed(turn, action)
        case ChooseLanguage() as action:
            await language.language_chosen(turn, action, press)
        case SwitchAccount() as action:
            await login.switch_chosen(turn, action, press)
        case PickClient() as action:
            await order.client_picked(turn, action, press)
        case ChangeChoices() as action:
            await order.choices_changed(turn, action, press)
        case SavePlan() as action:
            await plan_summary.plan_saved(turn, action, press)
        case PickTarget() | PickSite() as action:
            await plan_making.target_picked(turn, action, press)
        case PlanAction() as action:
            await plan_listing.plan_pressed(turn, action, press)
        case _:
            await _pressed_for_clients(turn, action, press)


async def _pressed_for_clients(turn: Turn, action: Action | None, press: Press) -> None:
    """The buttons of /musteriler, a list narrowed to one client, and the spending CSV."""
    match action:
        case AddClient() as action:
            await clients.add_pressed(turn, action, press)
        case ClientDefaults() as action:
            await clients.defaults_pressed(turn, action, press)
        case ClientTone() as action:
            await clients.default_tone_picked(turn, action, press)
        case ClientSize() as action:
            await clients.default_size_picked(turn, action, press)
        case RemoveClient() as action:
            await clients.remove_pressed(turn, action, press)
        case ClientArticles() as action:
            await articles.client_articles_shown(turn, action, press)
        case ClientSearch() as action:
            await articles.client_search_shown(turn, action, press)
        case SpendingCsv() as action:
            await spending.csv_pressed(turn, action, press)
        case _:
            await sites.site_pressed(turn, action, press)


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
