"""The texts of a client's WordPress site: connecting it, the diagnoses, publishing a draft."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ENGLISH_SITES", "TURKISH_SITES", "SiteTexts"]


@dataclass(frozen=True, slots=True)
class SiteTexts:
    """Every text of clients' sites, in one language; each diagnosis says what to do."""

    button_site: str
    button_connect: str
    button_change: str
    button_remove: str
    button_publish: str
    line: str
    shown: str
    ask_url: str
    bad_url: str
    ask_username: str
    bad_username: str
    ask_password: str
    ask_password_unseen: str
    checking: str
    connected: str
    removed: str
    none: str
    publishing: str
    published: str
    busy: str
    # Why a site refused, by the diagnosis's class name (bot.core.publishing.errors).
    diagnoses: tuple[tuple[str, str], ...]
    # Application passwords absent on an http:// address: https is named too.
    app_passwords_off_http: str
    unknown_problem: str
    # A plan whose articles go to its client's site too.
    plan_target: str
    # How a plan's articles go to the site: posts at the run's time, or drafts.
    as_scheduled: str
    as_drafts: str
    button_scheduled: str
    button_draft: str
    plan_published: str
    plan_paused: str
    # Slack's form of a site (a modal title is at most 24 characters).
    form_title: str
    form_url: str
    form_username: str
    form_password: str
    form_submit: str

    def diagnosis(self, kind: str) -> str:
        """What to tell the user for a diagnosis."""
        return dict(self.diagnoses).get(kind, self.unknown_problem)


TURKISH_SITES = SiteTexts(
    button_site="Web sitesi",
    button_connect="Siteyi bağla",
    button_change="Siteyi değiştir",
    button_remove="Siteyi kaldır",
    button_publish="WordPress'e taslak",
    line="🌐 {name}",
    shown="{client}: WordPress sitesi {name} ({url}), kullanıcı {username}.",
    ask_url="{client} için WordPress sitesinin adresini yazın (ör. https://ornek.com).",
    bad_url="Bu bir web adresi değil. Sitenin adresini https://ornek.com gibi yazın.",
    ask_username=(
        "WordPress kullanıcı adını yazın: panele girerken kullandığınız ad "
        "(uygulama şifresinin adı değil)."
    ),
    bad_username="Kullanıcı adı 1-60 karakter olmalı. Tekrar yazın.",
    ask_password=(
        "Uygulama şifresini yazın (WordPress: Kullanıcılar › Profil › Uygulama şifreleri). "
        "Mesajınızı hemen sileceğim."
    ),
    ask_password_unseen=(
        "Uygulama şifresini yazın (WordPress: Kullanıcılar › Profil › Uygulama şifreleri)."
    ),
    checking="Site kontrol ediliyor…",
    connected="Bağlandı: {name}. {client} için makaleler bu siteye taslak olarak gönderilebilir.",
    removed="{client} için site kaldırıldı; uygulama şifresi silindi.",
    none="{client} için bağlı bir WordPress sitesi yok.",
    publishing="WordPress'e gönderiliyor…",
    published="WordPress'te taslak hazır: {title}\nDüzenle: {edit_link}",
    busy="Bu makale şu anda siteye gönderiliyor; birazdan tekrar deneyin.",
    diagnoses=(
        (
            "UnknownUsername",
            "Site bu kullanıcı adını tanımıyor. Uygulama şifresinin adını değil, WordPress'e "
            "girerken kullandığınız kullanıcı adını yazın.",
        ),
        (
            "WrongPassword",
            "Uygulama şifresi yanlış ya da iptal edilmiş. WordPress'te Profil › Uygulama "
            "şifreleri'nden yeni bir şifre oluşturup onu yazın.",
        ),
        (
            "CredentialsRejected",
            "Site kullanıcı adını ya da uygulama şifresini kabul etmedi. İkisini de kontrol "
            "edin; gerekirse Profil › Uygulama şifreleri'nden yeni bir şifre oluşturun.",
        ),
        (
            "AuthorizationStripped",
            "Şifre doğru, ama sunucu giriş bilgisini (Authorization başlığını) WordPress'e "
            "iletmiyor. Barındırma firmanızdan bu başlığın iletilmesini isteyin "
            "(Apache: .htaccess'e CGIPassAuth On).",
        ),
        (
            "CredentialsOrHeader",
            "Site girişi kabul etmedi. Ya kullanıcı adı ya da uygulama şifresi yanlış, ya da "
            "sunucu Authorization başlığını iletmiyor (Apache: CGIPassAuth On). Önce "
            "bilgileri kontrol edin, sonra barındırma firmanıza sorun.",
        ),
        (
            "AppPasswordsOff",
            "Bu sitede uygulama şifreleri kapalı; çoğu zaman bir güvenlik eklentisi "
            "(ör. Wordfence) kapatır. Eklentinin ayarlarından açın ve tekrar deneyin.",
        ),
        (
            "RestBlocked",
            "Site REST API'yi engelliyor (bir güvenlik eklentisi ya da güvenlik duvarı). "
            "Eklentide REST API'yi giriş yapan kullanıcılara açın.",
        ),
        (
            "NotWordPress",
            "Bu adreste bir WordPress sitesi bulunamadı. Sitenin ana adresini yazın.",
        ),
        (
            "TlsRequired",
            "Site https:// istiyor. Adresi https:// ile başlayarak yeniden yazın.",
        ),
        (
            "NotAllowed",
            "Bu kullanıcı yazı oluşturamıyor. En az Yazar (tercihen Editör) rolündeki bir "
            "kullanıcının uygulama şifresini kullanın.",
        ),
        (
            "SiteUnreachable",
            "Site şu anda yanıt vermiyor. Adresi kontrol edin ya da biraz sonra tekrar deneyin; "
            "makaleniz kaybolmaz.",
        ),
    ),
    app_passwords_off_http=(
        "Site bu adreste uygulama şifresi sunmuyor: WordPress bunları yalnızca https:// "
        "üzerinden sunar. Adresi https:// ile yazın; öyleyse bir güvenlik eklentisi kapatmış "
        "olabilir."
    ),
    unknown_problem="Site beklenmedik bir yanıt verdi. Biraz sonra tekrar deneyin.",
    plan_target="{target} ve {site} sitesi ({how})",
    as_scheduled="planın saatinde yayımlanacak yazı",
    as_drafts="taslak",
    button_scheduled="Zamanlanmış yazı",
    button_draft="Taslak",
    plan_published="Takvim: “{title}” {site} sitesine gönderildi: {link}\nDüzenle: {edit_link}",
    plan_paused=(
        "Takvim durduruldu: “{title}” {site} sitesine gönderilemedi. {problem} "
        "Sonra planı /takvim ile sürdürün; makale kaybolmaz."
    ),
    form_title="WordPress sitesi",
    form_url="Sitenin adresi",
    form_username="WordPress kullanıcı adı",
    form_password="Uygulama şifresi",
    form_submit="Bağlan",
)

ENGLISH_SITES = SiteTexts(
    button_site="Website",
    button_connect="Connect site",
    button_change="Change site",
    button_remove="Remove site",
    button_publish="WordPress draft",
    line="🌐 {name}",
    shown="{client}: WordPress site {name} ({url}), user {username}.",
    ask_url="Type the address of {client}'s WordPress site (e.g. https://example.com).",
    bad_url="That is not a web address. Type the site's address like https://example.com.",
    ask_username=(
        "Type the WordPress username: the one you log in to the dashboard with "
        "(not the application password's name)."
    ),
    bad_username="A username has 1-60 characters. Type it again.",
    ask_password=(
        "Type the application password (WordPress: Users › Profile › Application Passwords). "
        "I will delete your message at once."
    ),
    ask_password_unseen=(
        "Type the application password (WordPress: Users › Profile › Application Passwords)."
    ),
    checking="Checking the site…",
    connected="Connected: {name}. Articles for {client} can now go to this site as drafts.",
    removed="The site of {client} was removed; its application password is deleted.",
    none="{client} has no WordPress site connected.",
    publishing="Sending to WordPress…",
    published="Draft ready on WordPress: {title}\nEdit: {edit_link}",
    busy="This article is being sent to the site right now; try again in a moment.",
    diagnoses=(
        (
            "UnknownUsername",
            "The site does not know this username. Type the username you log in to "
            "WordPress with, not the application password's name.",
        ),
        (
            "WrongPassword",
            "The application password is wrong or was revoked. Create a new one in "
            "WordPress under Profile › Application Passwords and type that.",
        ),
        (
            "CredentialsRejected",
            "The site did not accept the username or the application password. Check both; "
            "if needed, create a new password under Profile › Application Passwords.",
        ),
        (
            "AuthorizationStripped",
            "The password is right, but the server does not pass the login (the Authorization "
            "header) on to WordPress. Ask your host to pass it (Apache: CGIPassAuth On in "
            ".htaccess).",
        ),
        (
            "CredentialsOrHeader",
            "The site did not accept the login. Either the username or the application "
            "password is wrong, or the server drops the Authorization header (Apache: "
            "CGIPassAuth On). Check the details first, then ask your host.",
        ),
        (
            "AppPasswordsOff",
            "Application passwords are switched off on this site, usually by a security "
            "plugin (e.g. Wordfence). Switch them on in its settings and try again.",
        ),
        (
            "RestBlocked",
            "The site blocks its REST API (a security plugin or a firewall). Open the REST "
            "API to logged-in users in the plugin.",
        ),
        (
            "NotWordPress",
            "No WordPress site was found at this address. Type the site's main address.",
        ),
        (
            "TlsRequired",
            "The site wants https://. Type the address again starting with https://.",
        ),
        (
            "NotAllowed",
            "This user may not create posts. Use the application password of a user with "
            "at least the Author (better Editor) role.",
        ),
        (
            "SiteUnreachable",
            "The site does not answer right now. Check the address or try again later; "
            "your article is not lost.",
        ),
    ),
    app_passwords_off_http=(
        "The site offers no application passwords at this address: WordPress offers them "
        "over https:// only. Type the address with https://; if it already is, a security "
        "plugin may have switched them off."
    ),
    unknown_problem="The site gave an unexpected answer. Try again in a moment.",
    plan_target="{target} and the site {site} ({how})",
    as_scheduled="a post published at the plan's time",
    as_drafts="a draft",
    button_scheduled="Scheduled post",
    button_draft="Draft",
    plan_published="Calendar: “{title}” went to {site}: {link}\nEdit: {edit_link}",
    plan_paused=(
        "Calendar paused: “{title}” could not go to {site}. {problem} "
        "Then resume the plan with /takvim; the article is not lost."
    ),
    form_title="WordPress site",
    form_url="The site's address",
    form_username="WordPress username",
    form_password="Application password",
    form_submit="Connect",
)
