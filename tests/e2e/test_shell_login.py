"""The terminal chat's password prompt, piped: commands stay commands, a blank line is answered."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_shell import run_piped


def test_the_password_prompt_takes_commands_and_answers_a_blank_line(tmp_path: Path) -> None:
    script = "/giris demo@example.com\n\n/iptal\n/giris demo@example.com\n/bakiye\n"

    done = run_piped(tmp_path, script)

    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Şifre boş olamaz" in out
    assert "İptal edildi" in out
    assert "Önce giriş yapmalısınız" in out, "/bakiye ran as a command, not as a password"
    assert "hatalı" not in out
