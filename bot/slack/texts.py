"""Words only Slack shows (modal titles, field labels, the DM note), in the bot's languages."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SlackTexts", "slack_texts"]


@dataclass(frozen=True, slots=True)
class SlackTexts:
    """Slack's own texts in one language; modal titles and buttons take at most 24 characters."""

    login_title: str
    login_submit: str
    email_label: str
    password_label: str
    password_hint: str
    bad_email: str
    order_title: str
    order_submit: str
    close: str
    title_label: str
    tone_label: str
    size_label: str
    choose: str
    loading: str
    # ``{channel}`` is a mrkdwn channel link.
    dm_note: str
    client_label: str


_TURKISH = SlackTexts(
    login_title="Giriş yap",
    login_submit="Giriş",
    email_label="E-posta",
    password_label="Şifre",  # noqa: S106 - a label, not a password
    password_hint=(  # noqa: S106 - a hint, not a password
        "Şifreniz yalnızca giriş için kullanılır; hiçbir yerde saklanmaz."
    ),
    bad_email="Bu bir e-posta adresine benzemiyor.",
    order_title="Makale siparişi",
    order_submit="Devam",
    close="Vazgeç",
    title_label="Başlık",
    tone_label="Yazım tonu",
    size_label="Boyut",
    choose="Seçin",
    loading="Seçenekler yükleniyor…",
    dm_note="{channel} kanalına yazamadığım için buraya gönderiyorum.",
    client_label="Müşteri",
)

_ENGLISH = SlackTexts(
    login_title="Log in",
    login_submit="Log in",
    email_label="E-mail",
    password_label="Password",  # noqa: S106 - a label, not a password
    password_hint=(  # noqa: S106 - a hint, not a password
        "Your password is used for logging in only and never stored."
    ),
    bad_email="This does not look like an e-mail address.",
    order_title="Order an article",
    order_submit="Next",
    close="Cancel",
    title_label="Title",
    tone_label="Tone",
    size_label="Size",
    choose="Choose",
    loading="Loading the choices…",
    dm_note="I could not post in {channel}, so I am sending it here.",
    client_label="Client",
)

_LANGUAGES = {"tr": _TURKISH, "en": _ENGLISH}


def slack_texts(language: str) -> SlackTexts:
    """The texts of a language code, Turkish for anything unknown."""
    return _LANGUAGES.get(language, _TURKISH)
