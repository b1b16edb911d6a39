"""Encryption of upstream tokens at rest, and the local key file."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import os
import secrets
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

__all__ = [
    "InvalidKey",
    "TokenCipher",
    "UndecryptableToken",
    "generate_key",
    "load_or_create_key_file",
]


log = logging.getLogger(__name__)

_FINGERPRINT_PURPOSE = b"makale-bot fingerprint"
# Access tokens remembered: about those of the users active at once.
_REMEMBERED = 4096


class InvalidKey(ValueError):
    """A configured key is not a Fernet key; the message names its position, never its value."""


class UndecryptableToken(Exception):
    """A stored token was encrypted under none of the configured keys, or is damaged."""


class TokenCipher:
    """Encrypts under the first key and decrypts under any, so keys can be rotated."""

    def __init__(self, keys: str | Sequence[str]) -> None:
        names = keys.split(",") if isinstance(keys, str) else list(keys)
        names = [name.strip() for name in names]
        if not any(names):
            raise InvalidKey("no encryption key given")
        self._fernet = MultiFernet(
            [_fernet(name, position, len(names)) for position, name in enumerate(names, 1)]
        )
        # A key of its own for fingerprints, so that no HMAC output is made with a key that
        # also encrypts; derived from the first key, it needs no setting of its own.
        self._fingerprint_key = hmac.digest(
            base64.urlsafe_b64decode(names[0]), _FINGERPRINT_PURPOSE, hashlib.sha256
        )
        self._remembered = lru_cache(maxsize=_REMEMBERED)(self.decrypt)

    def encrypt(self, value: str) -> bytes:
        """Encrypt under the first key."""
        return self._fernet.encrypt(value.encode())

    def decrypt_remembered(self, token: bytes) -> str:
        """``decrypt``, remembering the result for the next time: for a token read with every
        update (an access token), whose decryption costs the answer more than its read did.

        A ciphertext never changes its plaintext, and the process holds the keys anyway.
        Refresh tokens and bot tokens are decrypted each time: they are read seldom, and
        are not kept in memory after a logout or an uninstall.
        """
        return self._remembered(token)

    def decrypt(self, token: bytes) -> str:
        """Decrypt under whichever key encrypted it."""
        try:
            return self._fernet.decrypt(token).decode()
        except InvalidToken as err:
            raise UndecryptableToken("no configured key decrypts this token") from err

    def rotate_each(self, rows: Iterable[object], field: str, whose: Callable[[Any], str]) -> int:
        """Re-encrypt ``field`` of every row under the first key; how many moved. A row no
        configured key decrypts is left as it is, with a warning naming ``whose`` it is."""
        moved = 0
        for row in rows:
            try:
                setattr(row, field, self.rotate(getattr(row, field)))
            except UndecryptableToken:
                log.warning("no configured key decrypts the %s of %s", field, whose(row))
                continue
            moved += 1
        return moved

    def fingerprint(self, value: str) -> str:
        """A keyed hash of the value (hex), to count by a value without storing it."""
        return hmac.new(self._fingerprint_key, value.encode(), hashlib.sha256).hexdigest()

    def rotate(self, token: bytes) -> bytes:
        """Re-encrypt under the first key, keeping the original timestamp."""
        try:
            return self._fernet.rotate(token)
        except InvalidToken as err:
            raise UndecryptableToken("no configured key decrypts this token") from err


def _fernet(key: str, position: int, count: int) -> Fernet:
    try:
        return Fernet(key)
    except ValueError:
        # The key itself stays out of the message: it is a secret even when malformed.
        raise InvalidKey(
            f"encryption key {position} of {count} is not a Fernet key"
            " (32 url-safe base64-encoded bytes)"
        ) from None


def generate_key() -> str:
    """A new random Fernet key."""
    return Fernet.generate_key().decode()


def load_or_create_key_file(path: Path) -> tuple[str, bool]:
    """The key kept in ``path``, creating the file (mode 0600) first if it is missing.

    Returns the key and whether this call created it. The file appears complete or not at
    all, and a process that loses a race to create it reads the winner's key.
    """
    try:
        return path.read_text().strip(), False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = generate_key()
    staging = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    descriptor = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(key + "\n")
            file.flush()
            os.fsync(file.fileno())
        # A hard link, unlike a rename, never replaces a key another process wrote meanwhile.
        os.link(staging, path)
    except FileExistsError:
        return path.read_text().strip(), False
    finally:
        with contextlib.suppress(FileNotFoundError):
            staging.unlink()
    return key, True
