"""The delivery benchmark runs whole with tiny sizes, so it cannot rot; its goals are not tested."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEASURES = {
    "private.rate",
    "private.refused",
    "private.lost",
    "group.pace",
    "group.refused",
    "group.lost",
    "waiting.p95",
    "waiting.calls",
    "waiting.frontier",
    "waiting.naive",
    "actions.slowest",
    "bakiye.p95",
    "round.time",
    "round.rss",
}


def test_the_smoke_run_measures_everything_and_loses_no_message(tmp_path: Path) -> None:
    results = tmp_path / "results.json"

    finished = subprocess.run(
        [sys.executable, "-m", "bench.delivery", "--smoke", "--out", str(results)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )

    assert finished.returncode == 0, finished.stderr[-3000:]
    report = json.loads(results.read_text())
    measures = {m["key"]: m for m in report["measures"]}
    assert set(measures) == MEASURES
    for measure in measures.values():
        assert math.isfinite(measure["value"]), measure
        assert math.isfinite(measure["reference"]), measure
        assert measure["name"].strip() in finished.stdout
    assert measures["private.lost"]["value"] == 0
    assert measures["group.lost"]["value"] == 0
    assert measures["private.lost"]["reference"] > 0
    assert set(report["machine"]) == {"cpus", "platform", "python"}
    assert "--smoke" in report["command"]
