"""The core's entry point for every adapter: one event of a chat user in, its answer out.

What answers what is in ``bot.core.routing.routes``; ``bot.core.routing.dispatch`` runs a
turn's event through it.
"""

from __future__ import annotations

from sqlmodel import Session

from bot.core.conversation.events import Event, Origin, UserKey
from bot.core.conversation.forms import OrderChoices
from bot.core.conversation.presenter import Presenter, present
from bot.core.conversation.screens import Effect, Screen
from bot.core.dialogs import order
from bot.core.dialogs.home import home_screen
from bot.core.routing.dispatch import after_answer, answering, dispatch
from bot.core.sharing.inline import InlineAnswer, inline_answer
from bot.core.texts import LANGUAGES
from bot.core.turn import Admission, AtOnce, CoreServices, Turn, language_of
from storage import Transaction, bookkeeping, drafts, jobs, targets, users
from storage.models import ChatUser
from storage.states import JobStatus

__all__ = ["Admission", "Conversations", "OrderChoices"]


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
        await after_answer(turn)

    async def handle(
        self, origin: Origin, event: Event, *, at_once: AtOnce | None = None
    ) -> list[Effect]:
        """The effects that answer one event (the caller shows them); ``at_once`` carries out
        urgent effects early."""
        turn = await self._turn(origin, event, at_once)
        await after_answer(turn)
        return turn.effects

    async def _turn(
        self,
        origin: Origin,
        event: Event,
        at_once: AtOnce | None,
        admission: Admission | None = None,
    ) -> Turn:
        turn = await self._started(origin, admission, at_once)
        await answering(turn, type(event).__name__, dispatch(turn, event))
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
        choices = await answering(turn, "order form", order.choices(turn))
        return turn.effects if choices is None else choices

    async def inline_articles(
        self, origin: Origin, query: str, offset: str, admission: Admission | None = None
    ) -> InlineAnswer:
        """The user's finished articles to share into any chat (Telegram's inline mode)."""
        turn = await self._started(origin, admission)
        answer = await answering(turn, "inline query", inline_answer(turn, query, offset))
        # A failure there has no chat to be told in: the user sees no results.
        return answer or InlineAnswer()

    async def home(self, origin: Origin) -> Screen:
        """The user's home screen (``bot.core.dialogs.home``)."""
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

    async def admit(
        self, source: str, update_id: str, origin: Origin, *, claim: float | None = None
    ) -> Admission | None:
        """``first_time`` with what the update's answer reads first (the chat user and their
        access token) read in the same transaction, so that the answer begins with no round
        trip of its own. None when the update was seen before. A user's first update is
        admitted on a second try, through the ORM, which makes their row.

        With ``claim``, it is claimed for that many seconds, until ``finished``: sent again
        meanwhile, it is taken over (``bookkeeping.claim_update``)."""
        accounts = self.services.accounts
        ids = {"source": source, "update_id": update_id}

        def admit(transaction: Transaction) -> Admission | None:
            if not bookkeeping.claim_update(transaction, **ids, seconds=claim):
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

    async def finished(self, source: str, update_id: str) -> None:
        """An update ``admit`` claimed is handled: sent again, it is a replay."""
        await self.services.db.run_brief(
            lambda transaction: bookkeeping.finish_update(
                transaction, source=source, update_id=update_id
            )
        )


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
