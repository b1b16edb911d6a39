"""Bolt's check of Slack's request signature, made quiet about what a refused request held."""

from __future__ import annotations

import logging

from slack_bolt.middleware.request_verification.async_request_verification import (
    AsyncRequestVerification,
)

__all__ = ["QuietRequestVerification"]

log = logging.getLogger(__name__)


class QuietRequestVerification(AsyncRequestVerification):
    """Refuses unsigned or stale requests (401) like Bolt's own check, but never logs the body.

    Bolt logs a refused request's whole body at INFO; a login form submitted with a stale
    timestamp (a slow proxy, a skewed clock) would put its password into the log.
    """

    def _debug_log_error(self, signature: str, timestamp: str, body: str) -> None:
        log.warning("refused a request without a valid Slack signature (timestamp %s)", timestamp)
