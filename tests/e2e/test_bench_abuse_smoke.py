"""The abuse benchmark runs whole with small sizes, so it cannot rot; its goals are not tested."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_abuse_smoke_run_reports_both_figures_beside_their_references(
    tmp_path: Path,
) -> None:
    results = tmp_path / "results.json"

    finished = subprocess.run(
        [sys.executable, "-m", "bench.abuse", "--smoke", "--out", str(results)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )

    assert finished.returncode == 0, finished.stderr[-3000:]
    report = json.loads(results.read_text())
    measures = {m["key"]: m for m in report["measures"]}
    assert set(measures) == {"loop.lag", "slack.rss"}
    for measure in measures.values():
        assert math.isfinite(measure["value"]), measure
        assert math.isfinite(measure["reference"]), measure
        assert measure["name"] in finished.stdout
    assert "413" in finished.stderr, "the unsigned bodies were refused as too large"
    assert "--smoke" in report["command"]
