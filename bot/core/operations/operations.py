"""What the process tells its operators: metrics, the admin chat's alerts, /health and /durum.

The core reports here what happened (a delivery round, an article's end, an upstream call,
a refused login); this module keeps the metrics and decides what is worth an alert.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot import metrics
from bot.api import CallReport
from bot.core.clock import Clock
from bot.core.operations.alerts import AlertCause, Alerts

__all__ = ["UPSTREAM_DOWN_AFTER", "Operations", "StatusFacts"]

# The upstream counts as down, and the admin chat is told, after failing this long.
UPSTREAM_DOWN_AFTER = timedelta(minutes=5)
_DELIVERED = "delivered"


@dataclass(frozen=True, slots=True)
class StatusFacts:
    """What /durum shows besides the jobs, which the database counts."""

    version: str
    uptime: timedelta
    last_upstream_error: str | None


class Operations:
    """Counts what the bot does and raises or clears alerts about it."""

    def __init__(self, *, clock: Clock, alerts: Alerts | None = None, version: str = "") -> None:
        self._clock = clock
        self.alerts = alerts or Alerts(chat=None, messengers={}, clock=clock)
        self.version = version
        self.started_at = clock()
        self.last_round_at: datetime | None = None
        self._failing_since: datetime | None = None
        self._last_error: str | None = None

    def round_done(self) -> None:
        """A delivery round ended."""
        self.last_round_at = self._clock()

    async def started(self) -> None:
        """Tell the admin chat this version started."""
        await self.alerts.alert(AlertCause.STARTED, detail=self.version)

    async def article_ended(self, outcome: str, job: str) -> None:
        """An article was delivered, or ended without delivery (``failed``, ``expired``)."""
        metrics.ARTICLES.labels(outcome).inc()
        if outcome != _DELIVERED:
            await self.alerts.alert(AlertCause.UNDELIVERED, detail=job)

    async def order_uncertain(self, outcome: str, draft: str = "") -> None:
        """A create call got no answer (``unknown``); then ``adopted`` or ``reported``."""
        metrics.UNCERTAIN_ORDERS.labels(outcome).inc()
        if outcome == "reported":
            await self.alerts.alert(AlertCause.ORDER_UNCONFIRMED, detail=draft)

    def order_confirmed(self) -> None:
        """A user confirmed an order."""
        metrics.ORDERS.labels("confirmed").inc()

    async def upstream_called(self, call: CallReport) -> None:
        """One call to the article service ended; its failure, if any, says what it means."""
        operation, outcome, failure = call.operation, call.outcome, call.failure
        metrics.UPSTREAM_CALLS.labels(operation, outcome).inc()
        metrics.UPSTREAM_SECONDS.labels(operation).observe(call.seconds)
        if call.paid:
            if outcome == "ok":
                metrics.ORDERS.labels("charged").inc()
            elif failure is not None and failure.may_have_charged:
                await self.order_uncertain("unknown")
        now = self._clock()
        if failure is None or not failure.unreachable:
            if outcome != "ok":
                self._last_error = f"{operation}: {outcome}"
            self._failing_since = None
            await self.alerts.clear(AlertCause.UPSTREAM_DOWN)
            return
        self._last_error = f"{operation}: {outcome}"
        self._failing_since = self._failing_since or now
        down_for = now - self._failing_since
        if down_for >= UPSTREAM_DOWN_AFTER:
            minutes = int(down_for.total_seconds() // 60)
            await self.alerts.alert(
                AlertCause.UPSTREAM_DOWN, minutes=minutes, detail=self._last_error
            )

    def login_refused(self, outcome: str) -> None:
        """A login failed (``failed``) or was held back (``throttled``)."""
        metrics.LOGINS.labels(outcome).inc()

    async def login_guard(self, engaged: bool, failures: int = 0) -> None:
        """The bot-wide login limit was found reached, or found clear again."""
        if engaged:
            await self.alerts.alert(AlertCause.LOGIN_GUARD, detail=failures)
        else:
            await self.alerts.clear(AlertCause.LOGIN_GUARD)

    def pending(self, count: int, oldest: datetime | None) -> None:
        """The jobs waiting for delivery, as the database counts them now."""
        metrics.PENDING_JOBS.set(count)
        age = (self._clock() - oldest).total_seconds() if oldest else 0.0
        metrics.OLDEST_PENDING_JOB.set(max(age, 0.0))

    def facts(self) -> StatusFacts:
        """Version, uptime and the last upstream error."""
        return StatusFacts(self.version, self._clock() - self.started_at, self._last_error)
