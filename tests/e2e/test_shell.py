"""The terminal chat started the way a newcomer starts it: ``python -m bot shell --sandbox``."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import pexpect
import pytest

from bot.sandbox import LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD
from storage import generate_key
from tests.e2e.bot_process import fresh_env

TITLE = "Yapay zekâ ile içerik üretimi"
SPEED = "240"
USER = "ayse"
PROMPT = f"{USER} ›"
# Under a terminal the text is styled: escape codes may stand between any two words.
STYLE = r"(?:\x1b\[[0-9;]*m)*"


def styled(*words: str) -> str:
    """A pattern for words shown in order, whatever styling stands between them."""
    return STYLE.join(re.escape(word) for word in words)


def shell_env(tmp_path: Path) -> dict[str, str]:
    """A fresh machine's environment, with a terminal the prompt can drive under pexpect."""
    # The prompt shows the user's name.
    return fresh_env() | {"PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "120", "LOGNAME": USER}


def spawn(tmp_path: Path, *extra: str) -> pexpect.spawn:
    """The terminal chat under a pseudo-terminal, as a person runs it."""
    return pexpect.spawn(
        sys.executable,
        ["-m", "bot", "shell", "--sandbox", "--speed", SPEED, *extra],
        cwd=str(tmp_path),
        env=shell_env(tmp_path),
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )


def says(child: pexpect.spawn, line: str, *shown: str) -> None:
    """Type a line, then wait for each pattern of the answer in turn."""
    child.sendline(line)
    for pattern in shown:
        child.expect(pattern)


def orders_a_short_article(child: pexpect.spawn) -> None:
    """Order TITLE in the first tone and size, by number, and confirm."""
    says(child, f"/yaz {TITLE}", styled("[1] ", "Profesyonel"))
    says(child, "1", "Kısa")
    says(child, "1", "Onayla")
    says(child, "Onayla", "Siparişiniz alındı")


def run_piped(
    tmp_path: Path, script: str, *extra: str, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "shell", "--sandbox", "--speed", SPEED, *extra],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=shell_env(tmp_path) | env,
        timeout=90,
        check=False,
    )


def test_piped_session_logs_in_orders_and_receives_the_article(tmp_path: Path) -> None:
    script = "\n".join(
        [
            "/giris demo@example.com Demo12345",
            "/bakiye",
            f"/yaz {TITLE}",
            "2",  # the second tone, by number
            "kisa",  # a size by name, without Turkish letters
            "Onayla",
            "/makalelerim",
            "/harcamalar",
        ]
    )
    done = run_piped(tmp_path, script + "\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Giriş yapıldı. Bakiyeniz: 500,00 TL" in out
    assert "[1] Profesyonel" in out
    assert "Ton: Samimi" in out
    assert "Boyut: Kısa (300-500)" in out
    assert "Siparişiniz alındı" in out
    assert "Makaleniz hazır" in out
    assert f"bot › {TITLE}\n" in out, "the article itself is printed, headed by its title"
    assert "kaynaklar (https://example.com/kaynaklar)" in out, "a link keeps its URL"
    assert re.search(r"^  1\. \S", out, re.MULTILINE), "a numbered list keeps its numbers"
    assert re.search(r"^Yöntem +\| Maliyet +\| Süre\n-+\+-", out, re.MULTILINE), "a table"
    assert "Bu ay: 15,00 TL" in out
    assert "Kısa: 1 makale" in out
    assert "Bakiyeniz: 485,00 TL" in out
    saved = list((tmp_path / "data" / "articles").glob("*.md"))
    assert [p.name for p in saved] == ["yapay-zeka-ile-icerik-uretimi.md"]
    assert len(saved[0].read_text().split()) > 250
    html = saved[0].with_suffix(".html").read_text()
    assert "<p>" in html, "the HTML file is saved beside the Markdown"
    assert "Demo12345" not in out, "the echoed /giris line hides the password"
    assert done.stderr.count("Demo12345") == 1, "only the start-up banner names the demo password"
    log = (tmp_path / "data" / "shell.log").read_text()
    assert "delivered job" in log, "the log goes to a file, not into the conversation"
    assert "INFO" not in done.stderr
    assert "Demo12345" not in log


def test_a_debug_log_of_one_order_is_mostly_the_bots_own_lines(tmp_path: Path) -> None:
    script = f"/giris demo@example.com Demo12345\n/yaz {TITLE}\n1\n1\nOnayla\n"
    done = run_piped(tmp_path, script, LOG_LEVEL="DEBUG")
    assert done.returncode == 0, done.stderr
    assert "Makaleniz hazır" in done.stdout
    log = (tmp_path / "data" / "shell.log").read_text()
    # Each record opens with "<date> <time> <LEVEL> <logger>:"; a traceback's lines do not.
    records = re.findall(r"^\S+ \S+ ([A-Z]+) ([\w.]+):", log, re.MULTILINE)
    assert ("DEBUG", "bot.api") in records, "the bot's own DEBUG lines are kept"
    libraries = Counter(name for _, name in records if name.split(".")[0] not in {"bot", "storage"})
    assert libraries.total() <= 0.1 * len(records), f"the libraries' lines: {libraries}"
    assert "Demo12345" not in log


def test_a_balance_short_of_the_next_article_is_warned_after_the_order(tmp_path: Path) -> None:
    script = f"/giris {LOW_BALANCE_EMAIL} {LOW_BALANCE_PASSWORD}\n/yaz {TITLE}\n1\nkisa\nOnayla\n"
    done = run_piped(tmp_path, script, "--wait", "0.5")
    assert done.returncode == 0, done.stderr
    warning = "Uyarı: bakiyeniz (5,00 TL) bir sonraki Kısa makale (15,00 TL) için yetmiyor."
    assert warning in done.stdout


def test_piped_end_of_input_with_nothing_pending_exits_at_once(tmp_path: Path) -> None:
    done = run_piped(tmp_path, "/yardim\n")
    assert done.returncode == 0, done.stderr
    assert "/yaz" in done.stdout
    assert "demo@example.com" in done.stderr, "the demo account is printed at start"


def test_articles_still_running_at_the_end_are_listed(tmp_path: Path) -> None:
    script = f"/giris demo@example.com Demo12345\n/yaz {TITLE}\n1\nçok uzun\nOnayla\n"
    done = run_piped(tmp_path, script, "--wait", "0.5")
    assert done.returncode == 0, done.stderr
    assert "Makaleleriniz (sayfa 1/1)" in done.stdout
    assert "Hazırlanıyor" in done.stdout or "Sırada" in done.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_interactive_prompt_hides_the_password(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    try:
        child.expect(PROMPT)
        child.sendline("/giris")
        child.expect("E-posta adresinizi yazın")
        child.sendline("demo@example.com")
        child.expect("Şifrenizi yazın")
        assert "sileceğim" not in (child.buffer or ""), "the terminal deletes no message"
        child.sendline("Demo12345")
        child.expect("Bakiyeniz: 500,00 TL")
        assert "Demo12345" not in (child.before or "")
        orders_a_short_article(child)
        child.expect("Makaleniz hazır", timeout=60)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_an_article_is_ordered_again_in_either_way_and_the_list_comes_as_a_zip(
    tmp_path: Path,
) -> None:
    child = spawn(tmp_path)
    try:
        child.expect(PROMPT)
        says(child, "/giris demo@example.com Demo12345", "Bakiyeniz: 500,00 TL")
        says(child, f"/yaz {TITLE}", styled("[1] ", "Profesyonel"))
        says(child, "2", "Kısa")
        says(child, "kisa", "Onayla")
        child.sendline("Onayla")
        child.expect(styled("[1] ", "Tekrar sipariş"), timeout=60)
        child.expect("Makaleniz hazır")
        # The delivered article's buttons are the choices now.
        says(child, "tekrar siparis", styled("Ton: ", "Samimi"), styled("Bakiyeniz: ", "485,00 TL"))
        says(child, "Onayla", "Siparişiniz alındı")
        says(child, "/makalelerim", styled("Başka ton · 2"))
        says(child, "başka ton", styled("[1] ", "Profesyonel"))
        says(child, "Eğitici", styled("Boyut: ", "Kısa"), styled("Bakiyeniz: ", "470,00 TL"))
        says(child, "/iptal", "İptal edildi")
        says(child, "/makalelerim", styled("Son 30 gün (.zip)"))
        says(child, "son 30 gün (.zip)", r"\d makale, her biri \.md ve \.html olarak")
        child.sendeof()
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close(force=True)
    (saved,) = (tmp_path / "data" / "articles").glob("*.zip")
    assert saved.name.startswith("makaleler-son-30-gun-")
    names = zipfile.ZipFile(saved).namelist()
    slug = "yapay-zeka-ile-icerik-uretimi"
    assert names[:2] == [f"{slug}.md", f"{slug}.html"]
    assert names[2:] in ([], [f"{slug}-2.md", f"{slug}-2.html"]), "the same title, kept apart"


def test_a_wrong_answer_keeps_the_choices_and_says_what_is_expected(tmp_path: Path) -> None:
    script = "\n".join(
        ["/giris", "demo@example.com", "Demo12345", f"/yaz {TITLE}", "7", "çok", "PERSUASIVE"]
    )
    done = run_piped(tmp_path, script + "\nkisa\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert out.count("1–6 arasından bir numara ya da seçeneğin adını yazın") == 2
    assert "Ton: İkna Edici" in out, "an English name is a choice too"
    assert "Boyut: Kısa" in out
    assert "Ne istediğinizi anlamadım" not in out
    assert f"{PROMPT} /yaz" in out
    assert "sen ›" not in out
    assert "sileceğim" not in out, "the terminal deletes no message"
    assert "Bakiyenizi görün" in out, "the help speaks to the user as siz"
    assert "; ile ayırarak" in out, "the help says how to order several titles"


def test_bulk_titles_one_per_line_and_a_repeated_title_left_out(tmp_path: Path) -> None:
    titles = [TITLE, "Bulut bilişimin kısa tarihi", TITLE]
    script = "\n".join(["/giris demo@example.com Demo12345", "/toplu", *titles, "", "1", "1"])
    done = run_piped(tmp_path, script + "\nOnayla\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "boş bir satır bırakın" in out
    assert "Başlıklar (2)" in out
    assert f"{TITLE} — listede zaten var" in out, "left out, as a file's repeated row"
    assert "2 makale sipariş edildi" in out
    saved = sorted(p.name for p in (tmp_path / "data" / "articles").glob("*.md"))
    assert saved == ["bulut-bilisimin-kisa-tarihi.md", "yapay-zeka-ile-icerik-uretimi.md"]
    assert "Görüşmek üzere!" in out


def test_titles_from_a_file_named_by_its_path_are_summed_up_and_charged_as_shown(
    tmp_path: Path,
) -> None:
    (tmp_path / "basliklar.csv").write_text(
        f"baslik;ton;boyut\n{TITLE};Samimi;Orta\nBulut bilişimin kısa tarihi;;\nKısa;;\n"
    )
    (tmp_path / "buyuk.txt").write_bytes(b"x" * (1024 * 1024 + 1))
    script = "\n".join(
        [
            "/giris demo@example.com Demo12345",
            "/toplu yok.csv",
            "/toplu buyuk.txt",
            "/toplu",
            "basliklar.csv",
            "Profesyonel",
            "kisa",
            "Onayla",
            "/bakiye",
        ]
    )
    done = run_piped(tmp_path, script + "\n", "--wait", "0.5")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Dosya bulunamadı: yok.csv" in out
    assert "Dosya 1 MB'tan büyük; hiçbir şey sipariş edilmedi." in out
    assert "Kısa — çok kısa (en az 10 karakter)" in out
    assert f"{TITLE} (Samimi, Orta)" in out
    assert "Ücret: 40,00 TL" in out
    assert "2 makale sipariş edildi" in out
    assert "Bakiyeniz: 460,00 TL" in out, "charged what the summary said, once"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_ctrl_c_cancels_a_dialog_and_leaving_waits_for_a_pending_article(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--speed", "1")
    try:
        child.expect(PROMPT)
        child.sendline("/giris demo@example.com Demo12345")
        child.expect("Bakiyeniz: 500,00 TL")
        child.sendline("/yaz")
        child.expect("başlığını yazın")
        child.expect(PROMPT)
        child.sendcontrol("c")
        child.expect("İptal edildi")
        orders_a_short_article(child)
        child.expect(PROMPT)
        child.sendeof()
        child.expect("1 makale bekleniyor; çıkmak için tekrar Ctrl-C")
        # The second Ctrl-C is for the prompt that waits, not for the moment before it is up.
        child.expect(PROMPT)
        child.sendcontrol("c")
        child.expect("Görüşmek üzere!")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    ("setting", "variable", "problem"),
    [
        ({"TOKEN_ENCRYPTION_KEY": "not-a-key"}, "TOKEN_ENCRYPTION_KEY", "not a Fernet key"),
        ({"DATABASE_URL": "bogus://"}, "DATABASE_URL", "sqlite:/// or postgresql://"),
        ({"DATABASE_URL": "postgresql://127.0.0.1:1/test"}, "DATABASE_URL", "does not answer"),
        (
            {"DATABASE_URL": "postgresql://no_such_role_i33@127.0.0.1:5432/test"},
            "DATABASE_URL",
            'refused by its server: role "no_such_role_i33" does not exist',
        ),
        (
            {"DATABASE_URL": "postgresql+psycopg2://127.0.0.1/test"},
            "DATABASE_URL",
            "psycopg2, which is not installed",
        ),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1-2-abc", "SLACK_CLIENT_ID": "1.2"},
            "SLACK_BOT_TOKEN and SLACK_CLIENT_ID",
            "not both",
        ),
    ],
)
def test_a_bad_key_or_database_is_one_line_naming_it(
    tmp_path: Path, setting: dict[str, str], variable: str, problem: str
) -> None:
    # The service is never reached: the settings fail first.
    service = {"ARTICLE_API_URL": "http://127.0.0.1:9", "TOKEN_ENCRYPTION_KEY": generate_key()}
    env = shell_env(tmp_path) | service | setting
    done = subprocess.run(
        [sys.executable, "-m", "bot", "shell"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert variable in lines[0]
    assert problem in lines[0]
    assert "Value error" not in lines[0], "pydantic's words stay out"
    assert "settings:" not in lines[0]
    log = tmp_path / "data" / "shell.log"
    assert "Traceback" not in (log.read_text() if log.exists() else "")


def test_a_client_with_defaults_orders_and_the_csv_and_the_card_follow(tmp_path: Path) -> None:
    script = "\n".join(
        [
            "/giris demo@example.com Demo12345",
            "/musteriler",
            "Müşteri ekle",
            "Acme Blog",
            "Varsayılanlar · Acme Blog",
            "Samimi",
            "Orta",
            f"/yaz {TITLE}",
            "Acme Blog",
            "Onayla",
            "/harcamalar",
            "CSV",
        ]
    )
    done = run_piped(tmp_path, script + "\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Acme Blog için varsayılanlar: Samimi, Orta" in out
    assert "Hangi müşteri için?" in out
    assert "Müşteri: Acme Blog" in out
    assert "Acme Blog: 25,00 TL / 0,00 TL" in out
    (saved,) = (tmp_path / "data").rglob("siparisler.csv")
    rows = saved.read_text(encoding="utf-8-sig").splitlines()
    assert rows[1].split(";")[1:6] == ["Acme Blog", TITLE, "Samimi", "Orta", "25,00"]
    assert re.search(r"Kalite kartı\s+Kelime: \d+ \(sipariş: 800-1200\) [✓✗]", out)
