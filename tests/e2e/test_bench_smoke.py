"""The delivery benchmark runs whole with tiny sizes, so it cannot rot; its goals are not tested,
only what holds at any size on any machine: nothing lost or refused, every waiting article
delivered, each ratio its value over its reference."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import forked

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
    "replicas.slowest",
    "replicas.refused",
    "replicas.lost",
}


def test_the_smoke_run_measures_everything_and_loses_no_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    postgres_server_url: str,
) -> None:
    # The replicas' scenario makes a schema of its own on the tests' server.
    monkeypatch.setenv("BENCH_DATABASE_URL", postgres_server_url)
    results = tmp_path / "results.json"
    # The fork server imports the bot for the benchmark's processes while this one imports
    # the benchmark: two cores, two imports at once.
    forked.start_server()
    from bench import delivery

    delivery.main(["--smoke", "--out", str(results)])

    printed = capsys.readouterr().out
    report = json.loads(results.read_text())
    measures = {m["key"]: m for m in report["measures"]}
    assert set(measures) == MEASURES
    for measure in measures.values():
        assert math.isfinite(measure["value"]), measure
        assert math.isfinite(measure["reference"]), measure
        assert measure["name"].strip() in printed
        if measure["reference"] and measure["key"] != "group.pace":
            assert measure["ratio"] == pytest.approx(measure["value"] / measure["reference"])
    for key in (
        "private.lost",
        "group.lost",
        "replicas.lost",
        "private.refused",
        "group.refused",
    ):
        assert measures[key]["value"] == 0, measures[key]
        assert measures[key]["reference"] > 0, measures[key]
    # The replicas' sends come on top of one another's 30 a second: not always none refused.
    assert measures["replicas.refused"]["reference"] > 0
    waiting = report["sizes"]["waiting"]
    assert measures["waiting.p95"]["note"].startswith(f"{waiting} of {waiting} arrived")
    assert measures["waiting.calls"]["reference"] == waiting, "every waiting article delivered"
    assert measures["waiting.calls"]["value"] >= waiting, "at least one call per article"
    assert measures["bakiye.p95"]["value"] > 0
    assert measures["bakiye.p95"]["reference"] > 0
    assert set(report["machine"]) == {"cpus", "platform", "python", "load_average"}
    assert "--smoke" in report["command"]
