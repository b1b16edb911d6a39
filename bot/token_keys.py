"""The key of the stored secrets (the service's tokens, the sites' application passwords):
``TOKEN_ENCRYPTION_KEY``, else a key file generated beside the SQLite database."""

from __future__ import annotations

import logging

from bot.config import ConfigError, Settings
from storage import InvalidKey, TokenCipher, load_or_create_key_file

log = logging.getLogger(__name__)


def token_cipher(settings: Settings) -> TokenCipher:
    """The cipher of the stored tokens; a key that is no Fernet key is a configuration error."""
    keys, source = _encryption_keys(settings)
    try:
        return TokenCipher(keys)
    except InvalidKey as err:
        raise ConfigError(f"{source}: {err}") from None


def _encryption_keys(settings: Settings) -> tuple[str, str]:
    """The keys, and where they come from: the variable, or the generated key file."""
    if settings.token_encryption_key is not None:
        return settings.token_encryption_key.get_secret_value(), "TOKEN_ENCRYPTION_KEY"
    path = settings.sqlite_path
    if path is None:
        # A key generated on a throwaway disk would lose every session at the next deploy.
        raise ConfigError("TOKEN_ENCRYPTION_KEY is required when DATABASE_URL is not SQLite")
    key, created = load_or_create_key_file(path.with_suffix(".key"))
    if created:
        log.warning(
            "generated a token encryption key in %s; back it up, or set TOKEN_ENCRYPTION_KEY",
            path.with_suffix(".key"),
        )
    return key, str(path.with_suffix(".key"))
