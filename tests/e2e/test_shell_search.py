"""The terminal chat finds articles by a word and says it has no inline mode."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from tests.e2e.test_shell import PROMPT, says, spawn, styled

pytestmark = pytest.mark.e2e


def test_makalelerim_with_a_word_finds_articles_the_turkish_way(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    try:
        child.expect(PROMPT)
        says(child, "/yardim", styled("satır içi (inline) mod yok"))
        says(child, "/giris demo@example.com Demo12345", "Bakiyeniz: 500,00 TL")
        says(
            child,
            "/toplu İstanbul'da bulut altyapısı; Yapay zekâ ile içerik üretimi",
            styled("[1] ", "Profesyonel"),
        )
        says(child, "1", "Kısa")
        says(child, "1", "Onayla")
        says(child, "Onayla", "2 makale sipariş edildi")
        for _ in range(2):
            child.expect("Makaleniz hazır", timeout=60)
        says(child, "/makalelerim ISTANBUL", styled("“ISTANBUL” için 1 makale bulundu"))
        child.expect("İstanbul'da bulut altyapısı")
        child.expect(styled("[1] ", "Aç 1"))
        child.expect(styled("Tekrar sipariş · 1"))
        says(child, "aç 1", "İstanbul'da bulut altyapısı")
        says(
            child,
            "/makalelerim kuantum",
            styled("“kuantum” için makale bulunamadı"),
            "Başlıktan başka bir kelime deneyin",
        )
        child.sendeof()
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close(force=True)
