"""Everything one fake workspace holds, shared by its HTTP routes and the test-side API."""

from __future__ import annotations

from dataclasses import dataclass

from tests.e2e.fake_slack.conversations import Conversations
from tests.e2e.fake_slack.ids import Ids
from tests.e2e.fake_slack.response_urls import ResponseUrls
from tests.e2e.fake_slack.uploads import Uploads
from tests.e2e.fake_slack.views import Views

__all__ = ["Workspace"]


@dataclass(frozen=True)
class Workspace:
    """A Slack workspace: its team, conversations, views, files (its token: ``Distribution``)."""

    base_url: str
    team_id: str
    ids: Ids
    conversations: Conversations
    views: Views
    uploads: Uploads
    response_urls: ResponseUrls

    @classmethod
    def create(cls, *, base_url: str, team_id: str, trigger_ttl: float) -> Workspace:
        """An empty workspace whose URLs (uploads, response URLs) start with `base_url`."""
        ids = Ids()
        conversations = Conversations(ids, team_id)
        return cls(
            base_url=base_url,
            team_id=team_id,
            ids=ids,
            conversations=conversations,
            views=Views(ids, team_id, trigger_ttl),
            uploads=Uploads(ids, base_url),
            response_urls=ResponseUrls(ids, base_url, conversations),
        )
