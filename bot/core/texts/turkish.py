"""Turkish-aware text folding, so "ÇOK UZUN", "Çok Uzun" and "cok uzun" are one choice."""

from __future__ import annotations

import unicodedata

__all__ = ["fold"]

# "İ".lower() leaves a combining dot, and "I".lower() gives "i" where Turkish wants "ı".
_TURKISH_UPPER = str.maketrans({"İ": "i", "I": "ı"})
# Users type without the Turkish letters as often as with them.
_ASCII = str.maketrans(
    {"ı": "i", "ç": "c", "ğ": "g", "ö": "o", "ş": "s", "ü": "u", "â": "a", "î": "i", "û": "u"}
)


def fold(text: str) -> str:
    """Fold case and Turkish letters for matching: ``fold("ÇOK UZUN") == fold("cok uzun")``."""
    lowered = unicodedata.normalize("NFC", text).translate(_TURKISH_UPPER).lower()
    return " ".join(lowered.translate(_ASCII).split())
