"""The texts of the login by link: the link in the chat, and the page it opens."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ENGLISH_LOGIN_PAGE", "TURKISH_LOGIN_PAGE", "LoginPageTexts"]


@dataclass(frozen=True, slots=True)
class LoginPageTexts:
    """Every text of the login by link, in one language."""

    # In the chat.
    link: str
    unavailable: str
    # Logged in, the balance unread (the service did not answer).
    logged_in: str
    # On the page.
    language: str
    title: str
    intro: str
    email: str
    password: str
    submit: str
    bad_email: str
    rejected: str
    invalid: str
    done: str
    used: str
    expired: str
    forbidden: str


TURKISH_LOGIN_PAGE = LoginPageTexts(
    link=(
        "Şifrenizi buraya yazmayın: bu sohbetteki mesajlar silinemez. Giriş için bu bağlantıyı "
        "açın; 10 dakika geçerlidir ve bir kez kullanılır:"
    ),
    unavailable=(
        "Bu sohbetten giriş bağlantısı verilemiyor: botun yöneticisi PUBLIC_URL ayarını yapmalı."
    ),
    logged_in="Giriş yapıldı.",
    language="tr",
    title="Makale Bot — Giriş",
    intro="Makale servisi hesabınızın e-posta adresi ve şifresi. Şifreniz hiçbir yerde saklanmaz.",
    email="E-posta",
    password="Şifre",
    submit="Giriş yap",
    bad_email="Bu bir e-posta adresine benzemiyor.",
    rejected="E-posta ya da şifre hatalı.",
    invalid="Servis bu bilgileri kabul etmedi: {reason}",
    done="Giriş yapıldı. Sohbete dönebilirsiniz; bakiyeniz orada.",
    used="Bu bağlantı kullanıldı. Yeni bir bağlantı için sohbete /giris yazın.",
    expired="Bu bağlantının süresi doldu. Yeni bir bağlantı için sohbete /giris yazın.",
    forbidden="Form geçersiz. Bağlantıyı sohbetten yeniden açın.",
)

ENGLISH_LOGIN_PAGE = LoginPageTexts(
    link=(
        "Do not type your password here: messages in this chat cannot be deleted. Open this "
        "link to log in; it works for 10 minutes, once:"
    ),
    unavailable="No login link can be given in this chat: the bot's operator must set PUBLIC_URL.",
    logged_in="You are logged in.",
    language="en",
    title="Makale Bot — Log in",
    intro="The e-mail and password of your article service account. Your password is not stored.",
    email="E-mail",
    password="Password",
    submit="Log in",
    bad_email="That does not look like an e-mail address.",
    rejected="Wrong e-mail or password.",
    invalid="The service did not accept these details: {reason}",
    done="You are logged in. Go back to the chat; your balance is there.",
    used="This link has been used. Type /giris in the chat for a new one.",
    expired="This link has expired. Type /giris in the chat for a new one.",
    forbidden="This form is not valid. Open the link from the chat again.",
)
