"""The terminal chat as a newcomer meets it, piped: choices read in rows, nothing deleted
without asking, files of titles wherever titles are asked, an empty list answered, long
lines echoed short, and cards and summaries laid out as README shows them."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_shell import run_piped

TITLES = ("Yapay zekâ ile içerik üretimi", "Bulut bilişimin kısa tarihi")
HUGE = 200_000


def test_a_first_hour_in_the_terminal_reads_as_readme_shows_it(tmp_path: Path) -> None:
    (tmp_path / "basliklar.txt").write_text("\n".join(TITLES) + "\n")
    script = [
        "/giris demo@example.com Demo12345",
        "/musteriler",
        "hangisi",
        "/toplu",
        str(tmp_path / "basliklar.txt"),
        "/iptal",
        "/toplu",
        "",
        "/iptal",
        "x" * HUGE,
        "/musteriler",
        "Müşteri ekle",
        "Acme Blog",
        "Müşteri ekle",
        "Beta Blog",
        "2",
        "Vazgeç",
        "/takvim her gün 09:00: basliklar.txt",
        "Müşterisiz",
        "Samimi",
        "Kısa",
        "Onayla",
    ]
    done = run_piped(tmp_path, "\n".join(script) + "\n", "--wait", "0.5")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "ⓘ 1 ya da seçeneğin adını yazın." in out, "one choice: no 'from 1 to 1'"
    assert "Bu komutu tanımıyorum" not in out, "a path is a file of titles, not a command"
    assert out.count("Başlıklar (2):\n  • Yapay zekâ") >= 2, "the file, asked for and in a plan"
    assert "Listede sipariş edilebilecek başlık yok" in out, "an empty line is answered"
    assert max(len(line) for line in out.splitlines()) < 1000, "a huge line echoed short"
    assert f"… (+{HUGE - 300})" in out
    acme = "  [1] Varsayılanlar · Acme Blog   [2] Sil · Acme Blog   [3] Web sitesi · Acme Blog\n"
    assert acme in out, "numbered in rows"
    assert (
        "  [4] Varsayılanlar · Beta Blog   [5] Sil · Beta Blog   [6] Web sitesi · Beta Blog\n"
        in out
    )
    assert "Acme Blog silinsin mi?" in out
    assert "Acme Blog silindi" not in out, "nothing is deleted without a yes"
    picker = "Hangi müşteri için?\n  [1] Acme Blog   [2] Beta Blog   [3] Müşterisiz   [4] İptal\n"
    assert picker in out, "the client picker is one row, as README shows it"
    assert "Ton: Samimi\nBoyut: Kısa (300-500)\nÜcret: 30,00 TL\n" in out, "no blank lines"
    assert "Plan kaydedildi" in out
