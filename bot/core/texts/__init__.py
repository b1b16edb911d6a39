"""The bot's words in each language: one typed record per language, so none can miss a text."""

from __future__ import annotations

from bot.core.texts.catalog import Texts
from bot.core.texts.en import ENGLISH
from bot.core.texts.tr import TURKISH

__all__ = ["LANGUAGES", "TURKISH_CODE", "Texts", "texts_for"]

TURKISH_CODE = "tr"
LANGUAGES: dict[str, Texts] = {TURKISH_CODE: TURKISH, "en": ENGLISH}


def texts_for(language: str) -> Texts:
    """The texts of a language code, Turkish for anything unknown."""
    return LANGUAGES.get(language, TURKISH)
