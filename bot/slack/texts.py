"""Words only Slack shows (modal titles, field labels, the DM note), in the bot's languages."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LANGUAGES", "SlackTexts", "slack_texts"]


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
    # Shown to a plan's owner alone in its channel as a run begins: Slack refuses it where the
    # bot may no longer post, which is how the run finds out before it orders.
    plan_check: str
    # "Add to Slack": the install and redirect pages (HTML, every language at once), and the
    # answer in a workspace that removed the app.
    install_title: str
    install_link: str
    # ``{team}`` is the workspace's name.
    installed: str
    install_failed: str
    team_refused: str
    org_refused: str
    not_installed: str
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
    plan_check="Takvim: planlı sipariş şimdi veriliyor; makale bu kanala gelecek.",
    install_title="Makale Bot'u Slack'e ekleyin",
    install_link="Slack'e ekle",
    installed=(
        "Makale Bot, {team} çalışma alanına eklendi. Başlamak için Slack'te /giris yazın ve"
        " makale servisindeki hesabınızla giriş yapın; sonra ilk makalenizi /yaz ile"
        " sipariş edin."
    ),
    install_failed=(
        "Kurulum tamamlanamadı; hiçbir şey saklanmadı. Yeniden denemek için kurulum"
        " sayfasını baştan açın."
    ),
    team_refused=(
        "Bu çalışma alanı bu bot için izinli değil: uygulama kaldırıldı ve hiçbir şey saklanmadı."
    ),
    org_refused=(
        "Makale Bot kuruluşun tamamına (Enterprise Grid) eklenemez: her çalışma alanı onu"
        " kendisi ekler. Uygulama kaldırıldı ve hiçbir şey saklanmadı; bir çalışma alanına"
        " eklemek için kurulum sayfasını o çalışma alanından açın."
    ),
    not_installed=(
        "Makale Bot bu çalışma alanında artık kurulu değil; bir yönetici yeniden ekleyebilir."
    ),
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
    plan_check="Calendar: a planned order is being placed now; the article will come here.",
    install_title="Add Makale Bot to Slack",
    install_link="Add to Slack",
    installed=(
        "Makale Bot was added to {team}. To start, type /giris in Slack and log in with your"
        " article service account; then order your first article with /yaz."
    ),
    install_failed=(
        "The installation could not be completed and nothing was stored. To try again, open"
        " the install page from the start."
    ),
    team_refused=(
        "This workspace is not allowed to use this bot: the app was removed and nothing was stored."
    ),
    org_refused=(
        "Makale Bot cannot be added to a whole organisation (Enterprise Grid): each workspace"
        " adds it itself. The app was removed and nothing was stored; to add it to a workspace,"
        " open the install page from that workspace."
    ),
    not_installed=(
        "Makale Bot is no longer installed in this workspace; an admin can add it again."
    ),
    client_label="Client",
)

_LANGUAGES = {"tr": _TURKISH, "en": _ENGLISH}
# Every language, Turkish first: pages a browser shows before anyone chose one.
LANGUAGES = tuple(_LANGUAGES.values())


def slack_texts(language: str) -> SlackTexts:
    """The texts of a language code, Turkish for anything unknown."""
    return _LANGUAGES.get(language, _TURKISH)
