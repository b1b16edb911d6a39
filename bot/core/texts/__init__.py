"""The bot's words in each language: one typed record per language, so none can miss a text;
and what words are made of: money (``money``) and Turkish folding (``turkish``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.texts.catalog import Texts
from bot.core.texts.en import ENGLISH
from bot.core.texts.tr import TURKISH

__all__ = ["LANGUAGES", "TURKISH_CODE", "Texts", "in_every_language", "texts_for"]

TURKISH_CODE = "tr"
LANGUAGES: dict[str, Texts] = {TURKISH_CODE: TURKISH, "en": ENGLISH}


def texts_for(language: str) -> Texts:
    """The texts of a language code, Turkish for anything unknown."""
    return LANGUAGES.get(language, TURKISH)


def in_every_language(text: Callable[[Texts], str]) -> tuple[str, ...]:
    """One text in every language, each once: the names a typed choice may use."""
    return tuple(dict.fromkeys(text(texts) for texts in LANGUAGES.values()))
