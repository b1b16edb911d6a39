"""A client's WordPress site in the terminal chat: the same questions, typed, the password not
echoed; the fake site answers on loopback while the chat runs as a subprocess."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests import wordpress_fixtures as shared
from tests.e2e.test_shell import SPEED, shell_env
from tests.fake_wordpress import FakeWordPress

# The shared fixture these tests take.
wordpress = shared.wordpress

pytestmark = pytest.mark.e2e


async def test_a_site_is_connected_from_the_terminal(
    tmp_path: Path, wordpress: FakeWordPress
) -> None:
    script = "\n".join(
        [
            "/giris demo@example.com Demo12345",
            "/musteriler",
            "Müşteri ekle",
            "Acme Blog",
            "/musteriler",
            "Web sitesi · Acme Blog",
            "Siteyi bağla",
            wordpress.base_url,
            wordpress.username,
            wordpress.app_password,
            "/musteriler",
            "",
        ]
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "shell",
        "--sandbox",
        "--speed",
        SPEED,
        cwd=tmp_path,
        env=shell_env(tmp_path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(script.encode()), 90)
    shown = out.decode()
    assert process.returncode == 0, err.decode()
    assert "Bağlandı: Örnek Blog" in shown, shown
    assert "🌐 Örnek Blog" in shown
    logged = (tmp_path / "data" / "shell.log").read_text()
    assert logged, "the chat wrote its log"
    for seen in (shown, err.decode(), logged):
        assert wordpress.app_password not in seen
