"""A fake Slack for end-to-end tests: the Web API the bot calls, and signed requests to the bot.

::

    async with FakeSlack.running(bot_token="xoxb-test", signing_secret="s") as slack:
        slack.add_channel("C1")
        client = AsyncWebClient(token="xoxb-test", base_url=slack.api_url)
        body, headers = slack.slash_command("/yaz", user_id="U1", channel_id="C1")
        ...  # POST body and headers to the app's /slack/events
        await slack.wait_for(lambda: slack.ephemerals("U1"))

Modules: ``server`` (FakeSlack, serving), ``team`` (one workspace as tests see it),
``distribution`` (the app's client credentials, oauth.v2.access, apps.uninstall, and the
token of each workspace, checked on every call), ``routes`` (HTTP decoding), ``web_api`` (the
methods), ``conversations``/``views``/``uploads``/``response_urls`` (what Slack keeps),
``limits`` (Slack's size rules), ``inbound`` (signed requests to the app), ``socket_mode``
(the same requests as Socket Mode envelopes, over a websocket the app opens).
"""

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.records import Call, OpenedView, ResponsePost, UploadedFile
from tests.e2e.fake_slack.server import FakeSlack

__all__ = ["Call", "FakeSlack", "OpenedView", "ResponsePost", "SlackError", "UploadedFile"]
