"""WhatsApp's name among the platforms, and the settings it cannot start without."""

from __future__ import annotations

__all__ = ["PLATFORM", "REQUIRED"]

PLATFORM = "whatsapp"
# The Cloud API's token and number, the app secret that signs webhooks, the verify token, and
# the bot's own address, where the login page serves the links /giris answers.
REQUIRED = (
    "whatsapp_access_token",
    "whatsapp_phone_number_id",
    "whatsapp_app_secret",
    "whatsapp_verify_token",
    "public_url",
)
