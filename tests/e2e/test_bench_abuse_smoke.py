"""The abuse benchmark runs whole with small sizes, so it cannot rot; its goals are not tested."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import forked


def test_the_abuse_smoke_run_reports_both_figures_beside_their_references(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.json"
    # The fork server imports the bot for the Slack process while this one imports the
    # benchmark: two cores, two imports at once.
    forked.start_server()
    from bench import abuse

    abuse.main(["--smoke", "--out", str(results)])

    finished = capsys.readouterr()
    report = json.loads(results.read_text())
    measures = {m["key"]: m for m in report["measures"]}
    assert set(measures) == {"loop.lag", "slack.rss"}
    for measure in measures.values():
        assert math.isfinite(measure["value"]), measure
        assert math.isfinite(measure["reference"]), measure
        assert measure["name"] in finished.out
    assert "413" in finished.err, "the unsigned bodies were refused as too large"
    assert "--smoke" in report["command"]
