"""Türkçe metinler (the default language)."""

from __future__ import annotations

from bot.core.texts.calendar import TURKISH_CALENDAR
from bot.core.texts.catalog import Texts
from bot.core.texts.login_page import TURKISH_LOGIN_PAGE
from bot.core.texts.money import TURKISH_MARKS
from bot.core.texts.sites import TURKISH_SITES

__all__ = ["TURKISH"]

TURKISH = Texts(
    language_name="Türkçe",
    money_marks=TURKISH_MARKS,
    tone_names=(),
    tone_descriptions=None,
    size_names=(),
    duration_units=(),
    help_intro=(
        "Makale Bot ile SEO makalelerini sohbetten sipariş edebilirsiniz: başlığı yazın, "
        "tonu ve boyutu seçin, onaylayın; makaleniz hazır olunca buraya gelir."
    ),
    help_commands=(
        ("yaz", "Yeni makale sipariş edin"),
        ("bakiye", "Bakiyenizi görün"),
        ("harcamalar", "Harcamalarınızı görün"),
        ("makalelerim", "Makalelerinizi listeleyin; bir kelimeyle başlıklarda arayın"),
        ("toplu", "Birden çok makale sipariş edin: başlıkları alt alta ya da ; ile ayırarak yazın"),
        ("musteriler", "Müşterilerinizi yönetin"),
        ("takvim", "Takvim: planlı siparişler (ör. her gün 09:00)"),
        ("konu", "Konu ekleyin"),
        ("giris", "Giriş yapın"),
        ("cikis", "Çıkış yapın"),
        ("iptal", "Süren işlemi iptal edin"),
        ("dil", "Dil seçin"),
        ("yardim", "Yardım alın"),
    ),
    help_logged_in="Giriş yaptınız.",
    help_logged_out="Henüz giriş yapmadınız: /giris ile başlayın.",
    login_private_only=(
        "Güvenliğiniz için giriş yalnızca bana özel mesajla yapılır. Bana özelden /giris yazın."
    ),
    ask_email="E-posta adresinizi yazın.",
    bad_email="Bu bir e-posta adresine benzemiyor. Yeniden yazın ya da /iptal deyin.",
    ask_password="Şifrenizi yazın. Mesajınızı hemen sileceğim; şifreniz hiçbir yerde saklanmaz.",
    ask_password_unseen="Şifrenizi yazın; ekranda görünmez ve hiçbir yerde saklanmaz.",
    login_ok="Giriş yapıldı. Bakiyeniz: {balance}",
    login_rejected="E-posta ya da şifre hatalı. Yeniden denemek için /giris yazın.",
    login_invalid="Servis bu bilgileri kabul etmedi: {reason} Yeniden denemek için /giris yazın.",
    login_throttled="Çok fazla hatalı deneme oldu. Lütfen birkaç dakika sonra yeniden deneyin.",
    logout_done="Çıkış yapıldı. Oturum bilgileriniz silindi.",
    logout_nothing="Giriş yapmış değilsiniz; kapatılacak bir oturum yok.",
    need_login="Önce giriş yapmalısınız: /giris",
    session_expired="Oturumunuzun süresi doldu. Lütfen /giris ile yeniden giriş yapın.",
    help_logged_in_as="Giriş yaptınız: {account}.",
    password_deleted="Şifre içerebileceği için mesajınızı sildim.",
    password_not_deleted=(
        "Mesajınızı silemedim. Şifre içeriyorsa lütfen hemen kendiniz silin ve şifrenizi "
        "değiştirin."
    ),
    empty_password="Şifre boş olamaz. Şifrenizi yazın ya da /iptal deyin.",
    already_logged_in=(
        "{account} hesabıyla giriş yaptınız. Başka bir hesaba geçmek istiyor musunuz?"
    ),
    button_switch_account="Hesap değiştir",
    button_keep_account="Vazgeç",
    account_kept="Hesabınız değişmedi: {account}.",
    too_fast=(
        "Çok hızlı yazıyorsunuz; son mesajlarınızın bir kısmını işleyemedim. "
        "Lütfen yanıtları bekleyip yeniden deneyin."
    ),
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
    summary_pick_affordable="Bakiyenizin yettiği bir boyut seçebilir ya da iptal edebilirsiniz.",
    button_confirm="Onayla",
    button_cancel="İptal",
    order_placed="Siparişiniz alındı: {title}. Ücret: {cost}. Hazır olunca buraya göndereceğim.",
    order_placed_estimate=(
        "Siparişiniz alındı: {title}. Tahmini süre: {estimate}. Ücret: {cost}. "
        "Hazır olunca buraya göndereceğim."
    ),
    bulk_placed="{count} makale sipariş edildi. Toplam ücret: {cost}. Hazır oldukça buraya gelecekler.",
    bulk_placed_away="{count} makale sipariş edildi. Toplam ücret: {cost}.",
    bulk_partly_placed=(
        "{count} / {total} makale sipariş edildi ({cost}). Kalan başlıkların siparişi verilemedi: {reason}"
    ),
    order_titles_refused="Servisin kabul etmediği başlıklar atlandı, ücret alınmadı: {titles} ({reason})",
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
    ask_bulk_titles=(
        "Başlıkları her satıra bir tane olacak şekilde ya da aralarına ; koyarak yazın "
        "(en çok {limit})."
    ),
    ask_bulk_titles_lines=(
        "Başlıkları her satıra bir tane yazın (en çok {limit}); bitirmek için boş bir satır "
        "bırakın. Tek satırda aralarına ; de koyabilirsiniz."
    ),
    bulk_no_titles=(
        "Listede sipariş edilebilecek başlık yok. 10-255 karakterlik başlıkları her satıra "
        "bir tane ya da aralarına ; koyarak yazın."
    ),
    file_wrong_kind="Başlıkları bir .txt ya da .csv dosyasıyla gönderin.",
    file_too_large="Dosya 1 MB'tan büyük; hiçbir şey sipariş edilmedi.",
    file_unreadable="Dosya okunamadı: düz metin (.txt) ya da CSV (.csv) olmalı. Hiçbir şey sipariş edilmedi.",
    file_no_titles="Dosyada sipariş edilebilecek başlık yok.",
    file_too_many="Dosyada {limit} başlıktan fazlası var; en çok {limit} başlık gönderebilirsiniz. Hiçbir şey sipariş edilmedi.",
    file_refused_titles="Alınmayan başlıklar ({count})",
    file_refused_more="ve {count} başlık daha",
    file_title_short="çok kısa (en az 10 karakter)",
    file_title_long="çok uzun (en çok 255 karakter)",
    file_title_duplicate="listede zaten var",
    file_unknown_tone="tonu tanınmadı",
    file_unknown_size="boyutu tanınmadı",
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
    button_zip_page="📦 Bu sayfa (.zip)",
    button_zip_recent="📦 Son 30 gün (.zip)",
    zip_page_name="makaleler-sayfa-{page}.zip",
    zip_recent_name="makaleler-son-30-gun-{date}.zip",
    zip_preparing="{count} makale arşivleniyor…",
    zip_caption="{count} makale, her biri .md ve .html olarak",
    zip_left_out="Tarihi bilinmeyen {count} makale arşive alınmadı.",
    zip_nothing="Bu aralıkta bitmiş makaleniz yok.",
    zip_too_large="Arşiv 50 MB'ı aşıyor; makaleleri sayfa sayfa indirin.",
    button_order_again="Tekrar sipariş",
    button_other_tone="Başka ton",
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
    # Finding and sharing articles: /makalelerim with a word, Telegram's inline mode.
    search_found="“{query}” için {count} makale bulundu.",
    search_first_shown="İlk {shown} tanesi gösteriliyor; daraltmak için bir kelime daha ekleyin.",
    search_nothing="“{query}” için makale bulunamadı.",
    search_hint=(
        "Başlıktan başka bir kelime deneyin; tüm makaleleriniz için yalnızca /makalelerim yazın."
    ),
    search_newest_only=(
        "Arama yalnızca en yeni {count} makalenizi kapsadı: servis daha eskilerini listelemiyor."
    ),
    help_inline=(
        "Bir makaleyi başka bir sohbete paylaşmak için orada botun kullanıcı adını (@ ile) yazın: "
        "makaleleriniz listelenir, bir kelimeyle daraltabilirsiniz."
    ),
    help_no_inline=(
        "Bu sohbette satır içi (inline) mod yok; bir makaleyi bulmak için /makalelerim ve "
        "başlıktan bir kelime yazın."
    ),
    share_words="{words} kelime",
    share_description="{size} · {date}",
    share_date_format="%d.%m.%Y",
    button_read_all="Tamamını oku",
    button_inline_login="Giriş yap",
    share_gone="Bu bağlantı geçerli değil; paylaşan kişiden makaleyi yeniden paylaşmasını isteyin.",
    share_unavailable=(
        "Bu makale şu anda açılamıyor; paylaşan kişiden yeniden paylaşmasını isteyin."
    ),
    progress="Hazırlanıyor: {title} — %{progress}",
    progress_unknown="Hazırlanıyor: {title}",
    article_ready="Makaleniz hazır: {title}",
    table_note="📊 Tablo ({columns}): tamamı ekteki .md ve .html dosyalarında.",
    article_file_caption="{title} (Markdown dosyası)",
    article_html_caption="{title} (HTML dosyası, CMS'e doğrudan yüklenebilir)",
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
    not_allowed=(
        "Üzgünüz, bu botu kullanma izniniz yok. Erişim için botu işleten ekiple iletişime geçin."
    ),
    alert_upstream_down="Makale servisine {minutes} dakikadır ulaşılamıyor. Son hata: {detail}",
    alert_undelivered="Ücreti ödenmiş bir makale teslim edilemedi (iş {detail}).",
    alert_order_unconfirmed="Sonucu doğrulanamayan bir sipariş kullanıcıya bildirildi ({detail}).",
    alert_login_guard=(
        "Bot genelindeki giriş sınırı devrede: son {detail} başarısız giriş. "
        "Bir süre kimse giriş yapamayacak."
    ),
    alert_started="Makale Bot {detail} sürümüyle başladı.",
    alert_cleared="Düzeldi: {detail}",
    status_report=(
        "Sürüm: {version}\n"
        "Çalışma süresi: {uptime}\n"
        "Bekleyen işler: {pending} (en eskisi: {oldest})\n"
        "Son bir saatte teslim edilen: {delivered}\n"
        "Son servis hatası: {last_error}"
    ),
    status_none="yok",
    choose_by_number="{first}–{last} arasından bir numara ya da seçeneğin adını yazın.",
    choose_the_number="{number} ya da seçeneğin adını yazın.",
    shell_waiting="{count} makale bekleniyor; çıkmak için tekrar Ctrl-C.",
    shell_goodbye="Görüşmek üzere!",
    shell_file_missing="Dosya bulunamadı: {path}",
    home_intro=(
        "Makale Bot, makale servisindeki hesabınızla SEO makaleleri sipariş etmenizi sağlar."
        " Başlamak için giriş yapın."
    ),
    home_recent="Son makaleleriniz",
    button_log_in="Giriş yap",
    button_new_article="Yeni makale",
    # Clients (for agencies).
    client_name_length="Müşteri adı {low}-{high} karakter olmalı (yazdığınız {length} karakter).",
    clients_header="Müşterileriniz",
    clients_none="Henüz müşteri eklemediniz. Siparişlerinizi müşterilere ayırmak için ekleyin.",
    client_defaults_line="varsayılan: {choices}",
    button_add_client="Müşteri ekle",
    button_client_defaults="Varsayılanlar",
    button_client_remove="Sil",
    ask_client_name="Müşterinin adını yazın ({low}-{high} karakter).",
    client_name_taken="“{name}” adında bir müşteriniz zaten var. Başka bir ad yazın ya da /iptal deyin.",
    clients_full=(
        "En çok {most} müşteriniz olabilir; hepsi bir ekranda görünsün diye. Yenisini eklemek "
        "için /musteriler listesinden birini silin."
    ),
    client_added="{name} eklendi. Varsayılan ton ve boyut için /musteriler.",
    client_removed="{name} silindi; geçmiş siparişleri onun adıyla kalır.",
    confirm_remove_client=(
        "{name} silinsin mi? Geçmiş siparişleri onun adıyla kalır; planları duraklatılır."
    ),
    button_yes_remove="Evet, sil",
    button_keep="Vazgeç",
    client_pick_default_tone="{name} için varsayılan tonu seçin.",
    client_pick_default_size="{name} için varsayılan boyutu seçin.",
    client_defaults_saved="{name} için varsayılanlar: {choices}.",
    ask_which_client="Hangi müşteri için?",
    button_no_client="Müşterisiz",
    summary_client="Müşteri",
    button_change_choices="Değiştir",
    client_removed_mark="{name} (silindi)",
    button_articles_of_client="Yalnız {name}",
    articles_of_client="{name} için siparişler",
    # Spending per client, and the CSV of every order.
    spending_clients_header="Müşteriye göre (bu ay / geçen ay)",
    spending_client_line="{name}: {this_month} / {last_month}",
    button_csv="CSV",
    csv_columns=("Tarih", "Müşteri", "Başlık", "Ton", "Boyut", "Tutar", "Durum"),
    csv_filename="siparisler.csv",
    csv_caption="Siparişleriniz ({count})",
    csv_states=(
        ("pending", "Yazılıyor"),
        ("finished", "Hazır"),
        ("delivered", "Teslim edildi"),
        ("failed", "Başarısız"),
        ("expired", "Zaman aşımı"),
        ("unsendable", "Gönderilemedi"),
    ),
    # The quality card after each article.
    card_header="Kalite kartı",
    card_words="Kelime: {count} (sipariş: {range}) {mark}",
    card_words_no_range="Kelime: {count}",
    card_reading="Okuma süresi: {minutes} dk",
    card_headings="Ara başlık: {count}",
    card_readability="Okunabilirlik (Ateşman): {score} · {band}",
    card_bands=("çok kolay", "kolay", "orta güçlükte", "zor", "çok zor"),
    card_title_words="Başlığın kelimeleri: {words}",
    calendar=TURKISH_CALENDAR,
    login_page=TURKISH_LOGIN_PAGE,
    sites=TURKISH_SITES,
)
