"""Words only WhatsApp shows (a list's button, its refusals), in the bot's languages."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WhatsAppTexts", "whatsapp_texts"]


@dataclass(frozen=True, slots=True)
class WhatsAppTexts:
    """WhatsApp's own texts in one language; a list's button takes at most 20 characters."""

    choose: str
    more: str
    unsupported: str


_TEXTS = {
    "tr": WhatsAppTexts(
        choose="Seçenekler",
        more="Devamı ({page}/{pages})",
        unsupported="Bunu okuyamıyorum. Bir komut yazın (ör. yardim) ya da bir seçeneğe dokunun.",
    ),
    "en": WhatsAppTexts(
        choose="Options",
        more="More ({page}/{pages})",
        unsupported="I can't read that. Type a command (e.g. yardim) or tap an option.",
    ),
}


def whatsapp_texts(language: str) -> WhatsAppTexts:
    """The texts in ``language``, Turkish for any other."""
    return _TEXTS.get(language, _TEXTS["tr"])
