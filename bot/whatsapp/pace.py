"""WhatsApp's pace, kept before each send instead of learnt from its errors.

About one message every 6 seconds to one person after a short burst (error 131056 past
it): 5 at once, then one each 6 s. A number sends 80 a second (error 130429): a little
under it, as its clock and ours may differ.
"""

from __future__ import annotations

from bot.core.limits.pacing import Bucket, Limit, Pacer

__all__ = ["NUMBER_LIMITS", "PERSON_LIMITS", "number_pacer"]

PERSON_LIMITS: tuple[Limit, ...] = (Bucket(5, 1 / 6),)
NUMBER_LIMITS: tuple[Limit, ...] = (Bucket(80, 78.0),)


def number_pacer() -> Pacer:
    """A pacer of one number's sends, on the system's clock."""
    return Pacer(NUMBER_LIMITS)
