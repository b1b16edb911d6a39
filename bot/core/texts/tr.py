"""Türkçe metinler (the default language)."""

from __future__ import annotations

from bot.core.texts.catalog import Texts

__all__ = ["TURKISH"]

TURKISH = Texts(
    language_name="Türkçe",
    help_intro=(
        "Makale Bot ile SEO makalelerini sohbetten sipariş edebilirsiniz: başlığı yazın, "
        "tonu ve boyutu seçin, onaylayın; makaleniz hazır olunca buraya gelir."
    ),
    help_commands=(
        ("yaz", "Yeni makale sipariş et"),
        ("bakiye", "Bakiyeni gör"),
        ("harcamalar", "Harcamalarını gör"),
        ("makalelerim", "Makalelerini listele"),
        ("toplu", "Birden çok makale sipariş et"),
        ("konu", "Konu ekle"),
        ("giris", "Giriş yap"),
        ("cikis", "Çıkış yap"),
        ("iptal", "Süren işlemi iptal et"),
        ("dil", "Dil seç"),
        ("yardim", "Yardım"),
    ),
    help_logged_in="Giriş yaptınız.",
    help_logged_out="Henüz giriş yapmadınız: /giris ile başlayın.",
    login_private_only=(
        "Güvenliğiniz için giriş yalnızca bana özel mesajla yapılır. Bana özelden /giris yazın."
    ),
    ask_email="E-posta adresinizi yazın.",
    bad_email="Bu bir e-posta adresine benzemiyor. Yeniden yazın ya da /iptal deyin.",
    ask_password="Şifrenizi yazın. Mesajınızı hemen sileceğim; şifreniz hiçbir yerde saklanmaz.",
    login_ok="Giriş yapıldı. Bakiyeniz: {balance}",
    login_rejected="E-posta ya da şifre hatalı. Yeniden denemek için /giris yazın.",
    login_invalid="Servis bu bilgileri kabul etmedi: {reason}. Yeniden denemek için /giris yazın.",
    login_throttled="Çok fazla hatalı deneme oldu. Lütfen birkaç dakika sonra yeniden deneyin.",
    logout_done="Çıkış yapıldı. Oturum bilgileriniz silindi.",
    logout_nothing="Zaten giriş yapmamıştınız.",
    need_login="Önce giriş yapmalısınız: /giris",
    session_expired="Oturumunuzun süresi doldu. Lütfen /giris ile yeniden giriş yapın.",
    ask_title="Makalenin başlığını yazın (10-255 karakter).",
    title_too_short="Başlık en az 10 karakter olmalı (şu an {length}). Yeniden yazın.",
    title_too_long="Başlık en çok 255 karakter olabilir (şu an {length}). Yeniden yazın.",
    pick_tone="Yazım tonunu seçin:",
    pick_size="Makale boyutunu seçin:",
    size_label="{name} · {words} kelime · {cost}",
    summary_title="Başlık",
    summary_bulk_titles="Başlıklar ({count})",
    summary_tone="Ton",
    summary_size="Boyut",
    summary_cost="Ücret",
    summary_balance="Bakiyeniz",
    summary_insufficient="Bakiyeniz bu sipariş için yetmiyor ({missing} eksik).",
    button_confirm="Onayla",
    button_cancel="İptal",
    order_placed="Siparişiniz alındı: {title}. Ücret: {cost}. Hazır olunca buraya göndereceğim.",
    order_placed_estimate=(
        "Siparişiniz alındı: {title}. Tahmini süre: {estimate}. Ücret: {cost}. "
        "Hazır olunca buraya göndereceğim."
    ),
    bulk_placed="{count} makale sipariş edildi. Toplam ücret: {cost}. Hazır oldukça buraya gelecekler.",
    bulk_partly_placed=(
        "{count} / {total} makale sipariş edildi ({cost}). Kalanlar verilemedi: {reason}"
    ),
    order_insufficient="Bakiyeniz yetersiz: gereken {required}, mevcut {current}.",
    order_rejected="Servis siparişi kabul etmedi: {reason}",
    order_not_charged_retry=(
        "Servis şu anda yanıt vermiyor; sipariş verilmedi ve ücret alınmadı. "
        "Biraz sonra yeniden Onayla'ya basabilirsiniz."
    ),
    order_outcome_unknown=(
        "Servisten yanıt alamadım. Siparişin alınıp alınmadığını kontrol ediyorum; "
        "alındıysa makaleniz buraya gelecek. Yeniden sipariş vermeyin."
    ),
    order_adopted="Siparişiniz servise ulaşmış: {title}. Hazır olunca buraya göndereceğim.",
    order_lost=(
        "Siparişiniz servise ulaşmadı: {title}. Bakiyenizi /bakiye ile kontrol edip "
        "yeniden sipariş verebilirsiniz."
    ),
    order_unconfirmed=(
        "Siparişinizin servise ulaşıp ulaşmadığını doğrulayamadım: {title}. Yeniden sipariş "
        "vermeden önce /bakiye ve /makalelerim ile kontrol edin."
    ),
    order_already_handled="Bu sipariş zaten işlendi.",
    order_cancelled="Sipariş iptal edildi.",
    order_cannot_cancel="Gönderilmiş bir sipariş iptal edilemez.",
    ask_bulk_titles="Başlıkları her satıra bir tane olacak şekilde yazın (en çok {limit}).",
    bulk_bad_lines="Şu satırlar 10-255 karakter olmalı: {lines}. Listeyi düzeltip yeniden yazın.",
    bulk_too_many="En çok {limit} başlık yazabilirsiniz (şu an {count}).",
    balance="Bakiyeniz: {balance}",
    spending_header="Harcamalarınız",
    spending_this_month="Bu ay: {amount}",
    spending_last_month="Geçen ay: {amount}",
    spending_size_line="{size}: {count} makale",
    spending_average="Makale başına ortalama: {amount}",
    spending_none="Henüz ücretli bir siparişiniz yok.",
    low_balance="Uyarı: bakiyeniz ({balance}) bir sonraki {size} makale ({cost}) için yetmiyor.",
    articles_empty="Henüz makaleniz yok. /yaz ile ilk makalenizi sipariş edin.",
    articles_header="Makaleleriniz (sayfa {page}/{pages})",
    article_line="{number}. {title} — {status}",
    button_open="Aç {number}",
    button_previous="◀ Önceki",
    button_next="Sonraki ▶",
    article_not_ready="Bu makale henüz hazır değil.",
    status_pending="Sırada",
    status_processing="Hazırlanıyor %{progress}",
    status_finished="Hazır",
    status_failed="Başarısız",
    status_unknown="Bilinmiyor",
    ask_topic="Eklemek istediğiniz konuyu yazın.",
    topic_bad="Konu 2-255 karakter olmalı. Yeniden yazın ya da /iptal deyin.",
    topic_added="Konu eklendi: {topic}",
    progress="Hazırlanıyor: {title} — %{progress}",
    progress_unknown="Hazırlanıyor: {title}",
    article_ready="Makaleniz hazır: {title}",
    article_file_caption="{title} (Markdown dosyası)",
    article_failed="Makaleniz hazırlanamadı: {title}. Sebep: {reason}",
    article_unsendable=(
        "Makaleniz hazır ama sohbete gönderilemedi: {title}. "
        "/makalelerim ile açıp dosya olarak alabilirsiniz."
    ),
    article_expired=(
        "Makaleniz beklenen sürede gelmedi: {title}. /makalelerim ile durumuna bakabilirsiniz."
    ),
    deliver_after_login="Bekleyen makaleleriniz hazır olunca buraya gelecek.",
    cancel_done="İptal edildi.",
    cancel_nothing="İptal edilecek bir işlem yok.",
    cancel_submitted_note="Gönderilmiş siparişler iptal edilemez; hazır olunca buraya gelecekler.",
    pick_language="Dil seçin / Choose a language:",
    language_set="Dil: Türkçe.",
    unknown_input="Ne istediğinizi anlamadım. Komutlar için /yardim yazın.",
    unknown_command="Bu komutu tanımıyorum. Komutlar için /yardim yazın.",
    stale_button="Bu düğme artık geçerli değil.",
    not_your_button="Bu düğme size ait değil.",
    service_down="Makale servisi şu anda yanıt vermiyor. Biraz sonra yeniden deneyin.",
    service_busy="Makale servisi çok yoğun. Lütfen biraz sonra yeniden deneyin.",
    service_confused="Makale servisinden beklenmeyen bir yanıt geldi. Biraz sonra yeniden deneyin.",
    something_broke="Bir şeyler ters gitti. Lütfen yeniden deneyin.",
)
