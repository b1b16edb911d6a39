"""A plan's articles on its client's site: each finished one posted once, at its run's time
(``status: future`` with its ``date_gmt``, since the site's zone may differ), and its owner
told privately with the link. A site that is down is tried again later; one that refuses
pauses the plan, as a lost channel does, and says why."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.core.delivery.waits import failure_wait
from bot.core.dialogs.sites import site_problem
from bot.core.publishing.client_sites import ClientSites, PostBusy
from bot.core.publishing.errors import SiteError
from bot.core.texts import Texts
from bot.core.turn import CoreServices
from storage import clients, plans, sites, users
from storage.models import Job, Plan
from storage.states import PlanStatus

__all__ = ["RETRY", "publish_planned"]

log = logging.getLogger(__name__)

_Say = Callable[[Texts], str]
# How long a site that did not answer is left alone before the post is tried again; the wait
# doubles with each failure in a row, up to ``_MAX_WAIT``.
RETRY = timedelta(minutes=5)
_MAX_WAIT = timedelta(hours=2)


async def publish_planned(services: CoreServices, publisher: ClientSites) -> None:
    """Post every finished article of the plans that publish to their client's site; one
    article's failure does not hold up the others."""
    now = services.clock()
    due = await services.db.run(lambda s: sites.due_planned_posts(s, now=now))
    for job, plan, run_at in due:
        try:
            await _publish(services, publisher, job, plan, run_at)
        except Exception:
            log.exception("the post of job %s to its plan's site failed", job.id)


async def _publish(
    services: CoreServices, publisher: ClientSites, job: Job, plan: Plan, run_at: datetime
) -> None:
    site = await publisher.site(plan.chat_user_id, plan.client_id)
    if site is None:
        # The client's site was removed since the plan was made (or the client itself).
        client = await services.db.run(
            lambda s: clients.get_client(
                s, user_id=plan.chat_user_id, client_id=plan.client_id or 0
            )
        )
        name = client.name if client is not None else ""
        await _pause(services, plan, job, "WordPress", lambda t: t.sites.none.format(client=name))
        return
    try:
        post = await publisher.publish_draft(site, job, scheduled_at=run_at)
    except PostBusy:
        return
    except SiteError as err:
        if err.passing:
            wait = failure_wait(RETRY, job.site_failures, _MAX_WAIT)
            await publisher.hold(job, services.clock() + wait)
            return
        refusal, url = err, site.url
        await _pause(services, plan, job, site.name, lambda t: site_problem(t, refusal, url))
        return
    await _tell(
        services,
        plan,
        lambda t: t.sites.plan_published.format(
            title=job.title, site=site.name, link=post.link, edit_link=post.edit_link
        ),
    )


async def _pause(services: CoreServices, plan: Plan, job: Job, site: str, problem: _Say) -> None:
    """Pause the plan (its articles wait) and tell its owner once why."""
    assert plan.id is not None
    plan_id, user_id = plan.id, plan.chat_user_id
    paused = await services.db.run(
        lambda s: plans.set_status(
            s,
            plan_id=plan_id,
            user_id=user_id,
            status=PlanStatus.PAUSED,
            since=(PlanStatus.ACTIVE, PlanStatus.DONE),
            reason="site",
        )
    )
    if paused:
        await _tell(
            services,
            plan,
            lambda t: t.sites.plan_paused.format(title=job.title, site=site, problem=problem(t)),
        )


async def _tell(services: CoreServices, plan: Plan, say: _Say) -> None:
    user = await services.db.run(lambda s: users.get_user(s, user_id=plan.chat_user_id))
    assert user is not None, "a plan is deleted with its user"
    owner = services.outbox.addresses.owner_chat(plan, user)
    await services.outbox.tell(user, owner, say)
