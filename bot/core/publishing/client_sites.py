"""Clients' sites: connected only after the site took the password, and articles written
there once, whoever presses and however often (the article's delivery record for the site
holds the post's id, and its lease lets one write at a time)."""

from __future__ import annotations

from datetime import datetime
from uuid import uuid4

from bot.core.clock import Clock
from bot.core.delivery.destinations import RECORD_LEASE
from bot.core.publishing.drafts import post_draft
from bot.core.publishing.site import PublishedPost, SiteCredentials, SitePublisher
from storage import Database, TokenCipher, deliveries, sites
from storage.models import Job
from storage.sites import StoredSite

__all__ = ["ClientSites", "PostBusy"]


class PostBusy(Exception):
    """Another press is writing this article's post right now."""


class ClientSites:
    """Each client's site, its application password encrypted under the tokens' keys."""

    def __init__(
        self, *, db: Database, cipher: TokenCipher, publisher: SitePublisher, clock: Clock
    ) -> None:
        self._db = db
        self._cipher = cipher
        self._publisher = publisher
        self._clock = clock

    async def connect(self, client_id: int, creds: SiteCredentials) -> str:
        """Check the credentials against the site, then keep them; the site's name.

        A refused check raises its ``SiteError`` and stores nothing.
        """
        name = await self._publisher.check(creds)
        now = self._clock()
        await self._db.run(
            lambda s: sites.save_site(
                s,
                cipher=self._cipher,
                client_id=client_id,
                url=creds.url,
                username=creds.username,
                app_password=creds.app_password,
                name=name,
                now=now,
            )
        )
        return name

    async def site(self, user_id: int, client_id: int | None) -> StoredSite | None:
        """The user's live client's site; None without one."""
        if client_id is None:
            return None
        return await self._db.run(
            lambda s: sites.site_of_client(
                s, cipher=self._cipher, user_id=user_id, client_id=client_id
            )
        )

    async def forget(self, user_id: int, client_id: int) -> bool:
        """Remove the client's site; whether it had one."""
        return await self._db.run(
            lambda s: sites.forget_site(s, user_id=user_id, client_id=client_id)
        )

    async def publish_draft(self, site: StoredSite, job: Job) -> PublishedPost:
        """Write the job's article on the site as a draft, on a press: the post already written
        for it is updated. Raises ``PostBusy`` while another writes it, or the site's error."""
        assert job.id is not None
        job_id, now, owner = job.id, self._clock(), f"press {uuid4().hex}"
        record = await self._db.run(
            lambda s: deliveries.claim_one(
                s,
                job_id=job_id,
                kind=sites.SITE,
                target=str(site.client_id),
                owner=owner,
                now=now,
                until=now + RECORD_LEASE,
            )
        )
        if record is None:
            raise PostBusy(job_id)
        assert record.id is not None
        record_id = record.id
        try:
            post = await self.write(site, job, record.progress)
        except BaseException:
            await self._db.run(lambda s: deliveries.release(s, record_id=record_id, owner=owner))
            raise
        await self._db.run(
            lambda s: deliveries.settle(
                s,
                record_id=record_id,
                owner=owner,
                progress=str(post.post_id),
                done=True,
                failures=0,
                next_try_at=None,
            )
        )
        return post

    async def write(
        self,
        site: StoredSite,
        job: Job,
        progress: str | None,
        *,
        scheduled_at: datetime | None = None,
    ) -> PublishedPost:
        """Write the article on the site, as a draft or (``scheduled_at``) a post at that time,
        updating the post ``progress`` names; the caller holds the article's delivery record."""
        assert job.content is not None
        creds = SiteCredentials(site.url, site.username, site.app_password)
        draft = post_draft(job.title, job.content, scheduled_at=scheduled_at)
        known = int(progress) if progress is not None else None
        return await self._publisher.publish(creds, draft, known)
