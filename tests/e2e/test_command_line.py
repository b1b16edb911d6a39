"""``python -m bot`` as a newcomer meets it: the help, and a missing token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.e2e.test_shell import shell_env


def run_bot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=shell_env(tmp_path),
        timeout=60,
        check=False,
    )


def test_the_help_has_no_stray_markup_and_every_option_shows_its_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    top = run_bot(tmp_path, "--help").stdout
    assert "python -m bot" in top
    assert "``" not in top
    # The sub-commands' help in this process: the same parser, without an interpreter each.
    for command in ("shell", "run", "telegram", "slack", "sandbox"):
        with pytest.raises(SystemExit) as leaving:
            main([command, "--help"])
        assert leaving.value.code == 0
        options = option_entries(capsys.readouterr().out)
        assert options, command
        without = [entry for entry in options if "(default:" not in entry]
        assert without == [], f"{command}: no default shown for {without}"


def option_entries(help_text: str) -> list[str]:
    """Each option of a help text with its description, wrapped lines joined; not --help."""
    entries: list[str] = []
    for line in help_text.splitlines():
        if line.startswith("  -"):
            entries.append(line)
        elif entries and line.startswith("     "):
            entries[-1] += line
    return [entry for entry in entries if "--help" not in entry]


def test_telegram_without_a_token_says_so_before_starting_the_sandbox(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "telegram", "--sandbox")
    assert done.returncode == 1
    assert "TELEGRAM_BOT_TOKEN" in done.stderr
    assert "Sandbox:" not in done.stderr


def test_slack_with_nothing_set_names_both_ways_to_set_it_up(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "slack", "--sandbox")
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    for variable in ("SLACK_BOT_TOKEN", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
        assert variable in lines[0]


def test_migrate_says_it_created_the_schema_then_that_it_is_up_to_date(tmp_path: Path) -> None:
    first = run_bot(tmp_path, "migrate")
    again = run_bot(tmp_path, "migrate")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    assert first.stdout.strip() == "database schema created"
    assert again.stdout.strip() == "database is up to date"
