"""Delivery: watching created jobs, showing their progress, and posting finished articles.

- ``engine``: which process delivers (one per platform), and one round of it;
- ``poller``: asks the upstream about pending jobs, once per user, and moves them on;
- ``sender``: posts finished articles, many chats at once, each chat's messages in order;
- ``leases``: short leases on jobs, renewed while work goes on, fenced on every write;
- ``outbox``: the notices and reports the core posts on its own, through the parts below;
- ``messengers``: the chats this process can write to, and messages fitted to each;
- ``addresses``: where a job's messages go, by its platform's rules (threads, private chats);
- ``recipients``: whom a job's messages are for, and in which language;
- ``progress``: each job's progress message, posted at the order and edited as it moves;
- ``failed_late``: an article message failed after it was accepted takes its article back;
- ``destinations``: the places an article goes besides its chat (a client's site), one
  delivery record each, the port each kind implements, and the runner with its registry of
  kinds (``Delivery.destinations``), whose rounds are a scheduler job of their own.

A job's states (``storage.states.JobStatus``)::

    PENDING ──finished──▶ FINISHED (content stored) ──parts and file sent──▶ DELIVERED
       │                    │   ▲ a crash or a send error resumes at the first unsent part
       │                    ├──chat gone past the job's timeout──▶ EXPIRED
       │                    └──sending failed for another reason 5 times──▶ UNSENDABLE (told)
       ├──failed upstream──▶ FAILED (reported with its reason)
       └──too old, or gone from the upstream──▶ EXPIRED (reported)

A delivery record's states (``storage.models.DeliveryRecord``), one per destination besides
the chat, each with its own lease, so none waits for the chat or for another::

    due ──leased──▶ writing ──Delivered──▶ done (its progress kept: a post's id)
     ▲                 ├──Later (no answer)──▶ due again after a wait that doubles
     │                 └──Halted (refused: the plan paused)──▶ waiting, with no next try
     └──its owner acts (the plan resumed)──── waiting

A lease run out (its writer died) makes the record due again, resumed from its progress;
a clean stop (``Delivery.stop``) hands its leases back, so another process resumes at once.

An error of the upstream or of a chat postpones only that one job, with a growing wait; so
does a bug met while handling one job, so that it cannot stop every other job's delivery.
"""

from bot.core.delivery.engine import LEASE, Delivery
from bot.core.delivery.outbox import Outbox
from bot.core.delivery.poller import MAX_POLL_WAIT, MISSING_GRACE
from bot.core.delivery.sender import MAX_SEND_FAILURES

__all__ = ["LEASE", "MAX_POLL_WAIT", "MAX_SEND_FAILURES", "MISSING_GRACE", "Delivery", "Outbox"]
