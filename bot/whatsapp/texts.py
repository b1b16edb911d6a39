"""Words only WhatsApp shows (a list's button, its refusals), in the bot's languages."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WhatsAppTexts", "whatsapp_texts"]


@dataclass(frozen=True, slots=True)
class WhatsAppTexts:
    """WhatsApp's own texts in one language; a list's button takes at most 20 characters."""

    choose: str
    more: str
    # No WhatsApp message can be deleted: a password typed here would stay in the chat.
    login_elsewhere: str
    unsupported: str


_TEXTS = {
    "tr": WhatsAppTexts(
        choose="Seçenekler",
        more="Devamı ({page}/{pages})",
        login_elsewhere=(
            "WhatsApp'ta şifre yazılmaz: bir mesaj silinemez, şifre sohbette kalırdı. "
            "Giriş için size tek kullanımlık bir bağlantı gönderilecek."
        ),
        unsupported="Bunu okuyamıyorum. Bir komut yazın (ör. yardim) ya da bir seçeneğe dokunun.",
    ),
    "en": WhatsAppTexts(
        choose="Options",
        more="More ({page}/{pages})",
        login_elsewhere=(
            "No password is typed on WhatsApp: a message cannot be deleted, so it would stay "
            "in the chat. You will get a one-time link to log in instead."
        ),
        unsupported="I can't read that. Type a command (e.g. yardim) or tap an option.",
    ),
}


def whatsapp_texts(language: str) -> WhatsAppTexts:
    """The texts in ``language``, Turkish for any other."""
    return _TEXTS.get(language, _TEXTS["tr"])
