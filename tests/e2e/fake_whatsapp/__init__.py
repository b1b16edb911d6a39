"""A fake WhatsApp Cloud API for end-to-end tests, written from Meta's documentation.

::

    async with FakeWhatsApp.running(webhook_url=f"{bot}/whatsapp/webhook") as wa:
        await wa.user_says("905551112233", "bakiye")
        await wa.wait_for(lambda: wa.texts_to("905551112233"))

Modules: ``server`` (FakeWhatsApp, serving on loopback), ``graph`` (the Graph API routes:
messages, media), ``limits`` (what the Cloud API refuses, and its error bodies), ``pairs``
(the 24-hour window and the pair rate, on the fake's own clock), ``webhooks`` (signed
notifications to the bot: messages and statuses).
"""

from tests.e2e.fake_whatsapp.limits import GraphError
from tests.e2e.fake_whatsapp.records import Sent
from tests.e2e.fake_whatsapp.server import FakeWhatsApp

__all__ = ["FakeWhatsApp", "GraphError", "Sent"]
