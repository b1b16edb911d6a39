"""The content calendar's texts (/takvim), one record per language."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.texts.plurals import Counted

__all__ = ["ENGLISH_CALENDAR", "TURKISH_CALENDAR", "CalendarTexts"]


@dataclass(frozen=True, slots=True)
class CalendarTexts:
    """Every text of the content calendar, in one language."""

    # Mon..Sun, and how the three rhythms read.
    day_names: tuple[str, ...]
    every_day: str
    every_days: str
    time_format: str
    date_format: str
    # How a plan is written; ``{tomorrow}`` is the date of tomorrow in the calendar's zone.
    examples: str
    none_yet: str
    heading: str
    line: str
    paused: str
    # Why a plan is paused, by the reason stored with it.
    reasons: tuple[tuple[str, str], ...]
    here: str
    # The target "this chat" named in the owner's private chat, where "this" would mislead.
    plan_chat: str
    bad_rhythm: str
    # What is wrong with a time, by ``TimeMistake``; ``{part}`` is the part as typed.
    mistakes: tuple[tuple[str, str], ...]
    how_to_write: str
    in_the_past: str
    ask_titles: str
    summary_rhythm: str
    summary_runs: str
    summary_target: str
    summary_more_runs: str
    summary_titles: str
    summary_charged_when_run: str
    # What the balance cannot pay when the plan is saved: its first run, or all its titles.
    summary_first_unpaid: str
    summary_all_unpaid: str
    # Saving a plan past the cap of plans a user may have.
    plan_cap: str
    saved: str
    cancelled: str
    button_pause: str
    button_resume: str
    button_delete: str
    paused_done: str
    resumed: str
    deleted: str
    confirm_delete: str
    ask_target: str
    button_here: str
    # Why a run could not post to its channel or group, by ``PostingRefused``.
    refusals: tuple[tuple[str, str], ...]
    run_placed: str
    run_placed_to: str
    run_low_balance: str
    run_skipped: str
    run_title_refused: str
    run_target_lost: str
    # The owner may no longer post to the plan's channel or group, so the bot will not for them.
    run_rights_lost: str
    # A run skipped as late although the bot was running (its clock jumped, the run failed).
    run_skipped_failed: str
    run_logged_out: str
    # /cikis names the plans it paused, one line each.
    logout_paused: str
    logout_paused_line: str

    def refusal(self, code: str) -> str:
        """Why a run could not post to its target, in words."""
        return dict(self.refusals).get(code, code)

    def mistake(self, code: str, part: str, tomorrow: str) -> str:
        """What is wrong with a plan's time, in words."""
        return dict(self.mistakes)[code].format(part=part, tomorrow=tomorrow)

    def reason(self, code: str | None) -> str:
        """Why a plan was paused, in words."""
        return dict(self.reasons).get(code or "", code or "")


TURKISH_CALENDAR = CalendarTexts(
    day_names=("pazartesi", "salı", "çarşamba", "perşembe", "cuma", "cumartesi", "pazar"),
    every_day="her gün {time}",
    every_days="her {days} {time}",
    time_format="%d.%m.%Y %H:%M",
    date_format="%d.%m.%Y",
    examples=(
        "/takvim {tomorrow} 14:30: Birinci başlık; İkinci başlık\n"
        "/takvim her gün 09:00: Birinci başlık; İkinci başlık\n"
        "/takvim her pazartesi, perşembe 09:00: Birinci başlık; İkinci başlık"
    ),
    none_yet="Henüz planınız yok. Bir planı tek mesajla yazın, örneğin:",
    heading="Planlarınız",
    line="{number}. {rhythm} — sonraki: {next} · kalan: {left} başlık · hedef: {target}",
    paused="Duraklatıldı ({reason})",
    reasons=(
        ("user", "sizin isteğinizle"),
        ("balance", "bakiye yetersiz"),
        ("target", "hedefe yazılamıyor"),
        ("client", "müşteri silindi"),
        ("site", "site yazıyı almadı"),
        ("login", "oturum kapalı"),
        ("rights", "kanalda yetkiniz yok"),
    ),
    here="bu sohbet",
    plan_chat="planı yazdığınız sohbet",
    bad_rhythm="Planın zamanını anlayamadım.",
    mistakes=(
        ("date", "{part} diye bir tarih yok (gün.ay.yıl yazın, örneğin {tomorrow})."),
        ("hour", "{part} olmaz: saat 00 ile 23 arasında olmalı (gece yarısı 00:00)."),
        ("minute", "{part} olmaz: dakika 00 ile 59 arasında olmalı."),
        ("digits", "{part} olmaz: dakikayı iki haneyle yazın, örneğin 09:05."),
        (
            "day",
            "“{part}” bir gün adı değil: pazartesi, salı, çarşamba, perşembe, cuma, "
            "cumartesi, pazar ya da her gün yazın.",
        ),
        ("no_time", "“{part}” içinde saat yok: saati 09:00 gibi yazın."),
        ("no_day", "{part} hangi gün? Önüne bir tarih ({tomorrow}) ya da “her gün” yazın."),
    ),
    how_to_write="Zamanı, ardından iki nokta ve başlıkları yazın, örneğin:",
    in_the_past="Bu zaman geçti ({time}). İleri bir zaman yazın, örneğin {tomorrow} 09:00.",
    ask_titles=(
        "Planın başlıklarını yazın: alt alta ya da ; ile ayırarak (en çok {limit}), "
        "ya da bir .txt/.csv dosyası gönderin."
    ),
    summary_rhythm="Zaman",
    summary_runs="Çalışma zamanları",
    summary_target="Hedef",
    summary_more_runs="… ve {count} çalışma daha",
    summary_titles="{count} başlık",
    summary_charged_when_run=(
        "Şimdi ücret alınmaz: her sipariş, çalıştığı anda bakiyenizden ücretlendirilir."
    ),
    summary_first_unpaid=(
        "⚠ Bakiyeniz ({balance}) şu an ilk çalışmanın ücretini ({cost}) karşılamıyor: o zamana "
        "kadar yüklemezseniz sipariş verilmez ve plan duraklatılır. Yine de kaydedebilirsiniz."
    ),
    summary_all_unpaid=(
        "Bakiyeniz ({balance}) şu an planın tümünü ({cost}) karşılamıyor: bakiye yetmediği "
        "çalışmada sipariş verilmez ve plan duraklatılır."
    ),
    plan_cap=(
        "Plan kaydedilmedi: en çok {limit} planınız olabilir. Yenisi için /takvim ile birini silin."
    ),
    saved="Plan kaydedildi. Sonraki çalışma: {next}. Planlarınız: /takvim",
    cancelled="Plan iptal edildi; kaydedilmedi.",
    button_pause="⏸ Duraklat {number}",
    button_resume="▶ Sürdür {number}",
    button_delete="🗑 Sil {number}",
    paused_done="Plan duraklatıldı.",
    resumed="Plan sürüyor. Sonraki çalışma: {next}.",
    deleted="Plan silindi.",
    confirm_delete="{number}. plan silinsin mi? {rhythm} · kalan: {left} başlık",
    ask_target="Makaleler nereye gönderilsin?",
    button_here="Bu sohbet",
    refusals=(
        ("not_member", "bot artık orada değil"),
        ("no_rights", "botun orada yazma yetkisi yok"),
        ("owner_left", "siz artık orada üye değilsiniz"),
        ("owner_no_rights", "kanalda yetkiniz yok"),
        ("archived", "kanal arşivlenmiş"),
        ("unknown", "Telegram izin vermedi"),
    ),
    run_placed="Takvim ({time}): {placed}",
    run_placed_to="Takvim ({time}) → {target}: {placed}",
    run_low_balance=(
        "Planınızın {time} siparişi verilmedi: bakiyeniz ({balance}) {count} başlığın "
        "ücretini ({cost}) karşılamıyor. Hiçbir ücret alınmadı ve plan duraklatıldı; "
        "bakiye yükleyince /takvim ile sürdürün."
    ),
    run_skipped=(
        "Planınızın {time} çalışması bir saatten fazla gecikti (bot o sırada çalışmıyordu) "
        "ve atlandı; ücret alınmadı."
    ),
    run_title_refused="Şu başlık servis tarafından kabul edilmedi ve atlandı: {title} ({reason})",
    run_target_lost=(
        "Planınız duraklatıldı: {target} hedefine artık yazamıyorum ({reason}). "
        "Hiçbir ücret alınmadı; sorunu giderince /takvim ile sürdürün."
    ),
    run_rights_lost=(
        "Planınız duraklatıldı: {target} hedefine sizin adınıza yazamam ({reason}). Hiçbir "
        "ücret alınmadı; yetkiniz geri gelince /takvim ile sürdürün."
    ),
    run_skipped_failed=(
        "Planınızın {time} çalışması bir saatten fazla gecikti (zamanında yapılamadı) "
        "ve atlandı; ücret alınmadı."
    ),
    run_logged_out=(
        "Planınız duraklatıldı: oturumunuz kapalı, {time} siparişi verilmedi. Hiçbir ücret "
        "alınmadı; /giris ile giriş yapıp /takvim ile sürdürün."
    ),
    logout_paused=(
        "Şu planlarınız duraklatıldı (oturum kapalı); yeniden giriş yapınca /takvim ile "
        "sürdürebilirsiniz:"
    ),
    logout_paused_line="{rhythm} · kalan: {left} başlık · hedef: {target}",
)

ENGLISH_CALENDAR = CalendarTexts(
    day_names=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    every_day="every day {time}",
    every_days="every {days} {time}",
    time_format="%d.%m.%Y %H:%M",
    date_format="%d.%m.%Y",
    examples=(
        "/takvim {tomorrow} 14:30: First title; Second title\n"
        "/takvim every day 09:00: First title; Second title\n"
        "/takvim every monday, thursday 09:00: First title; Second title"
    ),
    none_yet="You have no plans yet. Write one in one message, for example:",
    heading="Your plans",
    line=Counted(
        "{number}. {rhythm} — next: {next} · left: {left} [title|titles] · target: {target}",
        by="left",
    ),
    paused="Paused ({reason})",
    reasons=(
        ("user", "by you"),
        ("balance", "balance too low"),
        ("target", "cannot post to the target"),
        ("client", "client removed"),
        ("site", "the site refused the post"),
        ("login", "logged out"),
        ("rights", "you may not post in the channel"),
    ),
    here="this chat",
    plan_chat="the chat you wrote the plan in",
    bad_rhythm="I could not read the plan's time.",
    mistakes=(
        ("date", "There is no date {part} (write day.month.year, e.g. {tomorrow})."),
        ("hour", "{part} cannot be: the hour runs from 00 to 23 (midnight is 00:00)."),
        ("minute", "{part} cannot be: the minute runs from 00 to 59."),
        ("digits", "{part} cannot be: write the minute with two digits, e.g. 09:05."),
        (
            "day",
            "“{part}” is not a day: write monday, tuesday, wednesday, thursday, friday, "
            "saturday, sunday or every day.",
        ),
        ("no_time", "“{part}” has no time in it: write the time like 09:00."),
        ("no_day", "{part} on which day? Put a date ({tomorrow}) or “every day” before it."),
    ),
    how_to_write="Write the time, then a colon and the titles, e.g.:",
    in_the_past="That time has passed ({time}). Write a time ahead, e.g. {tomorrow} 09:00.",
    ask_titles=(
        "Write the plan's titles: one per line or separated by ; (at most {limit}), "
        "or send a .txt/.csv file."
    ),
    summary_rhythm="Time",
    summary_runs="Runs",
    summary_target="Target",
    summary_more_runs=Counted("… and {count} more [run|runs]"),
    summary_titles=Counted("{count} [title|titles]"),
    summary_charged_when_run=(
        "Nothing is charged now: each order is charged to your balance when it runs."
    ),
    summary_first_unpaid=(
        "⚠ Your balance ({balance}) does not pay for the first run ({cost}) now: unless you "
        "top up by then, nothing is ordered and the plan pauses. You may save it all the same."
    ),
    summary_all_unpaid=(
        "Your balance ({balance}) does not pay for the whole plan ({cost}) now: a run it does "
        "not pay orders nothing, and the plan pauses."
    ),
    plan_cap=(
        "The plan was not saved: you may have at most {limit} plans. Delete one with /takvim "
        "to make room."
    ),
    saved="Plan saved. Next run: {next}. Your plans: /takvim",
    cancelled="Plan cancelled; it was not saved.",
    button_pause="⏸ Pause {number}",
    button_resume="▶ Resume {number}",
    button_delete="🗑 Delete {number}",
    paused_done="Plan paused.",
    resumed="Plan resumed. Next run: {next}.",
    deleted="Plan deleted.",
    confirm_delete=Counted(
        "Delete plan {number}? {rhythm} · left: {left} [title|titles]", by="left"
    ),
    ask_target="Where should the articles go?",
    button_here="This chat",
    refusals=(
        ("not_member", "the bot is no longer there"),
        ("no_rights", "the bot may not post there"),
        ("owner_left", "you are no longer a member there"),
        ("owner_no_rights", "you may not post in the channel"),
        ("archived", "the channel is archived"),
        ("unknown", "Telegram would not allow it"),
    ),
    run_placed="Calendar ({time}): {placed}",
    run_placed_to="Calendar ({time}) → {target}: {placed}",
    run_low_balance=Counted(
        "Your plan's order of {time} was not placed: your balance ({balance}) does not pay "
        "for its {count} [title|titles] ({cost}). Nothing was charged and the plan is paused; "
        "resume it with /takvim once you have topped up."
    ),
    run_skipped=(
        "Your plan's run of {time} was over an hour late (the bot was not running) and was "
        "skipped; nothing was charged."
    ),
    run_title_refused="This title was refused by the service and skipped: {title} ({reason})",
    run_target_lost=(
        "Your plan is paused: I can no longer post to {target} ({reason}). Nothing was "
        "charged; resume it with /takvim once that is fixed."
    ),
    run_rights_lost=(
        "Your plan is paused: I will not post to {target} for you ({reason}). Nothing was "
        "charged; resume it with /takvim once you may post there again."
    ),
    run_skipped_failed=(
        "Your plan's run of {time} was over an hour late (it could not be made in time) and "
        "was skipped; nothing was charged."
    ),
    run_logged_out=(
        "Your plan is paused: you are logged out, so its order of {time} was not placed. "
        "Nothing was charged; log in with /giris and resume it with /takvim."
    ),
    logout_paused=(
        "These plans of yours are paused (logged out); resume them with /takvim once you log "
        "in again:"
    ),
    logout_paused_line="{rhythm} · left: {left} titles · target: {target}",
)
