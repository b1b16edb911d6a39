"""The terminal chat started the way a newcomer starts it: ``python -m bot shell --sandbox``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from bot.sandbox import LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD

TITLE = "Yapay zekâ ile içerik üretimi"
SPEED = "240"
# Under a terminal the text is styled: escape codes may stand between any two words.
STYLE = r"(?:\x1b\[[0-9;]*m)*"


def styled(*words: str) -> str:
    """A pattern for words shown in order, whatever styling stands between them."""
    return STYLE.join(re.escape(word) for word in words)


def shell_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a fresh machine: nothing of the bot's configured."""
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update({"PYTHONUNBUFFERED": "1", "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "120"})
    return env


def run_piped(tmp_path: Path, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "shell", "--sandbox", "--speed", SPEED, *extra],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=shell_env(tmp_path),
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
    child = pexpect.spawn(
        sys.executable,
        ["-m", "bot", "shell", "--sandbox", "--speed", SPEED],
        cwd=str(tmp_path),
        env=shell_env(tmp_path),
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )
    try:
        child.expect("sen ›")
        child.sendline("/giris")
        child.expect("E-posta adresinizi yazın")
        child.sendline("demo@example.com")
        child.expect("Şifrenizi yazın")
        child.sendline("Demo12345")
        child.expect("Bakiyeniz: 500,00 TL")
        assert "Demo12345" not in (child.before or "")
        child.sendline(f"/yaz {TITLE}")
        child.expect(styled("[1] ", "Profesyonel"))
        child.sendline("1")
        child.expect("Kısa")
        child.sendline("1")
        child.expect("Onayla")
        child.sendline("Onayla")
        child.expect("Siparişiniz alındı")
        child.expect("Makaleniz hazır", timeout=60)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
