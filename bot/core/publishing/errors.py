"""Every way a client's site can refuse a check or a post, one class per diagnosis.

The adapter decides which one from WordPress's error ``code`` (never its message: a Turkish
site translates the messages), so the core tells the user what to do without knowing HTTP::

    SiteError
    ├── SiteUnreachable          [P]  network error, timeout or 5xx, after retries: try later
    ├── NotWordPress                  the address answers, but no WordPress REST API is there
    ├── TlsRequired                   ``http://`` given where the site wants ``https://``
    ├── RestBlocked                   a security plugin or firewall refuses the REST API
    ├── SiteRefusedLogin              the site did not take the username and password
    │   ├── UnknownUsername           ``invalid_username``: often the application's name typed
    │   ├── WrongPassword             ``incorrect_password``: wrong or revoked
    │   ├── CredentialsRejected       ``rest_not_logged_in``, and XML-RPC refuses them too
    │   ├── AuthorizationStripped     ``rest_not_logged_in``, yet XML-RPC takes them: the host
    │   │                             drops the ``Authorization`` header
    │   ├── CredentialsOrHeader       ``rest_not_logged_in``, and nothing tells the two apart
    │   └── AppPasswordsOff           application passwords are switched off on the site
    ├── NotAllowed                    the user may not write posts (``rest_cannot_create``)
    └── UnexpectedAnswer              an answer that cannot be read as WordPress's

[P] ``passing``: the same request may work later; the article waits and nothing is lost.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "AppPasswordsOff",
    "AuthorizationStripped",
    "CredentialsOrHeader",
    "CredentialsRejected",
    "NotAllowed",
    "NotWordPress",
    "RestBlocked",
    "SiteError",
    "SiteRefusedLogin",
    "SiteUnreachable",
    "TlsRequired",
    "UnexpectedAnswer",
    "UnknownUsername",
    "WrongPassword",
]


class SiteError(Exception):
    """Base of every failure of a call to a client's site."""

    passing: ClassVar[bool] = False

    def __init__(self, message: str, *, code: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class SiteUnreachable(SiteError):
    """The site did not answer, timed out or failed (5xx); the same call may pass later."""

    passing = True


class NotWordPress(SiteError):
    """The address answers, but neither ``/wp-json/`` nor ``?rest_route=/`` is WordPress's."""


class TlsRequired(SiteError):
    """The site sends ``http://`` to ``https://``, or offers application passwords only there."""


class RestBlocked(SiteError):
    """The REST API is refused to everyone: ``rest_authentication_error`` or a firewall's 403."""


class SiteRefusedLogin(SiteError):
    """The site did not take the username and application password."""


class UnknownUsername(SiteRefusedLogin):
    """``invalid_username``: no such user (people type the application's name instead)."""


class WrongPassword(SiteRefusedLogin):
    """``incorrect_password``: the application password is wrong or was revoked."""


class CredentialsRejected(SiteRefusedLogin):
    """``rest_not_logged_in``, and XML-RPC refuses the same username and password."""


class AuthorizationStripped(SiteRefusedLogin):
    """``rest_not_logged_in`` though XML-RPC takes the password: the host drops the header."""


class CredentialsOrHeader(SiteRefusedLogin):
    """``rest_not_logged_in``, and the site offers no way to tell a wrong password from a
    dropped ``Authorization`` header (XML-RPC off): both causes are named."""


class AppPasswordsOff(SiteRefusedLogin):
    """The site offers no application passwords (a security plugin switched them off)."""


class NotAllowed(SiteError):
    """The user may log in but not write posts (a subscriber or contributor)."""


class UnexpectedAnswer(SiteError):
    """An answer that cannot be read as WordPress's (not JSON, or a post without an id)."""
