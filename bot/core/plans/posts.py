"""A plan's articles on its client's site, as one destination of their delivery: each
finished one posted once, at its run's time (``status: future`` with its ``date_gmt``, since
the site's zone may differ) or as a draft where the plan says so, and its owner told privately
with the link. A site that is down is tried again later; one that refuses pauses the plan, as
a lost channel does, and says why."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.delivery.destinations import Delivered, Destinations, Halted, Later, Outcome
from bot.core.dialogs.sites import site_problem
from bot.core.publishing.client_sites import ClientSites
from bot.core.publishing.errors import SiteError
from bot.core.texts import Texts
from bot.core.turn import CoreServices
from storage import clients, plans, sites, users
from storage.models import DeliveryRecord, Job, Plan
from storage.states import PlanStatus

__all__ = ["SitePosts", "register_site_posts"]

log = logging.getLogger(__name__)

_Say = Callable[[Texts], str]
_RUNNING = (PlanStatus.ACTIVE, PlanStatus.DONE)


def register_site_posts(destinations: Destinations, services: CoreServices) -> None:
    """Have the destinations' runner post the plans' articles to their clients' sites, where
    the bot is wired with them."""
    if services.sites is not None:
        destinations.register(sites.SITE, SitePosts(services, services.sites))


class SitePosts:
    """The ``Destination`` of a plan's articles on its client's site."""

    def __init__(self, services: CoreServices, publisher: ClientSites) -> None:
        self._services = services
        self._publisher = publisher

    async def deliver(self, record: DeliveryRecord, job: Job) -> Outcome:
        """Post the article at its run's time (or as a draft), updating the post it has."""
        assert job.id is not None
        job_id, services = job.id, self._services
        planned = await services.db.run(lambda s: sites.plan_of_post(s, job_id=job_id))
        if planned is None or planned[0].status not in _RUNNING:
            # A press's record, due only on a press; or a paused plan's, due once it runs.
            return Halted()
        plan, run_at = planned
        site = await self._publisher.site(plan.chat_user_id, plan.client_id)
        if site is None:
            # The client's site was removed since the plan was made (or the client itself).
            name = await self._client_name(plan)
            await _pause(
                services, plan, job, "WordPress", lambda t: t.sites.none.format(client=name)
            )
            return Halted()
        at = None if plan.site_draft else run_at
        try:
            post = await self._publisher.write(site, job, record.progress, scheduled_at=at)
        except SiteError as err:
            if err.passing:
                return Later()
            refusal, url = err, site.url
            await _pause(services, plan, job, site.name, lambda t: site_problem(t, refusal, url))
            return Halted()
        await _tell(
            services,
            plan,
            lambda t: t.sites.plan_published.format(
                title=job.title, site=site.name, link=post.link, edit_link=post.edit_link
            ),
        )
        return Delivered(str(post.post_id))

    async def _client_name(self, plan: Plan) -> str:
        client = await self._services.db.run(
            lambda s: clients.get_client(
                s, user_id=plan.chat_user_id, client_id=plan.client_id or 0
            )
        )
        return client.name if client is not None else ""


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
            since=_RUNNING,
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
