"""Section 7: ``failproof safe score``: outputs, exit codes 0 / 1 / 2 / 3, gate, store, events."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tests.safe.factories import EXAMPLES, passing, record_data, write_batch

from failproof.cli import main
from failproof.store import Store


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    for name in [n for n in os.environ if n.startswith("SAFE_V0_")]:
        monkeypatch.delenv(name)


def _score(*args: str) -> int:
    return main(["safe", "score", *args])


def _examples(*args: str) -> int:
    return _score("--concern", "I25", "--data-dir", str(EXAMPLES), *args)


def test_scores_the_examples_prints_the_scorecard_and_writes_json_and_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _examples("--batch", "*") == 1
    out, err = capsys.readouterr()
    assert "SAFE v0 Scorecard - I25" in out
    assert "Per-Case Breakdown:" in out
    reports = sorted((tmp_path / "reports").iterdir())
    assert [p.suffix for p in reports] == [".json", ".md"]
    assert all(p.name.startswith("SAFE_v0_I25_") for p in reports)
    assert f"wrote {Path('reports') / reports[0].name}" in err


def _batch_dir(tmp_path: Path, records: list[dict[str, Any]]) -> list[str]:
    write_batch(tmp_path / "data" / "C1", "C1_batch_1.json", records)
    return ["--concern", "C1", "--data-dir", str(tmp_path / "data"), "--batch", "C1_batch_*"]


@pytest.mark.parametrize(
    ("records", "code"),
    [
        pytest.param([passing("a"), passing("b")], 0, id="all-pass-exits-0"),
        pytest.param(
            [passing("a"), record_data(test_id="f", must_find=["x"])], 1, id="any-fail-exits-1"
        ),
        pytest.param(
            [passing("a"), record_data(test_id="r", forbidden=["a1", "b2"], questions=["a1?"])],
            2,
            id="review-without-fail-exits-2",
        ),
    ],
)
def test_exit_codes_of_7_3(tmp_path: Path, records: list[dict[str, Any]], code: int) -> None:
    assert _score(*_batch_dir(tmp_path, records), "-f", "json") == code


@pytest.mark.parametrize(
    ("gate", "code"),
    [
        pytest.param("0.5", 0, id="rate-at-gate-exits-0"),
        pytest.param("0.51", 1, id="rate-below-gate-exits-1"),
    ],
)
def test_fail_under_gates_on_the_overall_pass_rate(tmp_path: Path, gate: str, code: int) -> None:
    args = _batch_dir(tmp_path, [passing("a"), record_data(test_id="f", must_find=["x"])])
    assert _score(*args, "-f", "json", "--fail-under", gate) == code


def test_strict_ah_flag_turns_a_review_into_a_fail(tmp_path: Path) -> None:
    args = _batch_dir(
        tmp_path, [record_data(test_id="r", forbidden=["a1", "b2"], questions=["a1?"])]
    )
    assert _score(*args, "-f", "json") == 2
    assert _score(*args, "-f", "json", "--strict-ah") == 1


def test_strict_ah_from_environment_and_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = _batch_dir(
        tmp_path, [record_data(test_id="r", forbidden=["a1", "b2"], questions=["a1?"])]
    )
    monkeypatch.setenv("SAFE_V0_AH_STRICT", "true")
    assert _score(*args, "-f", "json") == 1
    assert _score(*args, "-f", "json", "--proportional-ah") == 2
    monkeypatch.delenv("SAFE_V0_AH_STRICT")
    (tmp_path / "safe.config.json").write_text('{"strictAH": true}')
    assert _score(*args, "-f", "json") == 1


def test_json_output_file_is_the_report(tmp_path: Path) -> None:
    assert _examples("--batch", "I25_batch_1", "--format", "json", "--output", "golden.json") == 1
    data = json.loads((tmp_path / "golden.json").read_text())
    assert data["batch_id"] == "I25_batch_1"
    assert data["summary"]["total_cases"] == 6


def test_verbose_shows_each_cases_phrases(capsys: pytest.CaptureFixture[str]) -> None:
    _examples("--batch", "I25_batch_1", "--format", "console", "--verbose")
    out = capsys.readouterr().out
    assert "CR found:" in out
    assert "taken to cath lab over 24 hours" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["--batch", "nope"], "no batch file in", id="glob-matches-nothing"),
        pytest.param(
            ["--batch", "*", "--format", "pdf"], "unknown SAFE report format 'pdf'", id="bad-format"
        ),
        pytest.param(
            ["--batch", "*", "--match", "fuzzy"], "match: Input should be", id="bad-match"
        ),
        pytest.param(
            ["--batch", "*", "--config", "missing.json"], "does not exist", id="missing-config"
        ),
        pytest.param(["--batch"], "requires an argument", id="usage-error"),
    ],
)
def test_configuration_and_input_errors_exit_3(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _examples(*args) == 3
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_bad_record_exits_3_naming_file_and_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**passing("b"), "expectations": "none"}
    assert _score(*_batch_dir(tmp_path, [passing("a"), bad]), "-f", "json") == 3
    err = capsys.readouterr().err
    assert "C1_batch_1.json: record[1] (test_id 'b'): expectations:" in err


def test_keep_going_skips_lists_and_counts_bad_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**passing("b"), "expectations": "none"}
    args = _batch_dir(tmp_path, [passing("a"), bad])
    assert _score(*args, "-f", "json", "-o", "r.json", "--keep-going") == 0
    assert "skipped: " in capsys.readouterr().err
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["summary"]["skipped"] == 1
    assert data["skipped"][0]["index"] == 1
    assert data["skipped"][0]["test_id"] == "b"


def test_every_result_is_recorded_in_the_store_with_its_timestamp(tmp_path: Path) -> None:
    _examples("--batch", "I25_batch_1", "-f", "json", "-o", "r.json")
    generated = json.loads((tmp_path / "r.json").read_text())["generated_at"]
    with Store(tmp_path / "home" / "failproof.db") as store:
        rows = store.safe_results("I25")
    assert len(rows) == 6
    assert {r["timestamp"] for r in rows} == {generated}
    assert rows[0]["test_id"] == "I25-B1-001"
    assert set(rows[0]["scores"]) == {"CR", "AH", "AC", "composite"}


def test_emit_to_a_jsonl_file_and_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _examples("--batch", "*", "-f", "json", "-o", "r.json", "--emit", "events.jsonl", "--emit", "-")
    lines = (tmp_path / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["batch_id"] for e in events] == ["I25_batch_1", "I25_batch_2", "I25_batch_3"]
    assert events[0]["event"] == "safe:v0:result"
    assert events[0]["concern_id"] == "I25"
    assert set(events[0]["summary"]) == {
        "total_cases",
        "pass",
        "review",
        "fail",
        "overall_pass_rate",
    }
    assert capsys.readouterr().out.count('"event": "safe:v0:result"') == 3


class _Collector(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = HTTPServer(("127.0.0.1", 0), _Collector)
    _Collector.received = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/events?token=secret"
    httpd.shutdown()
    httpd.server_close()


def test_emit_posts_each_event_to_a_url(server: str) -> None:
    _examples("--batch", "I25_batch_*", "-f", "json", "-o", "r.json", "--emit", server)
    assert [e["batch_id"] for e in _Collector.received] == [
        "I25_batch_1",
        "I25_batch_2",
        "I25_batch_3",
    ]


def test_unreachable_emit_url_exits_3_without_leaking_the_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "http://127.0.0.1:9/events?token=secret"
    assert _examples("--batch", "I25_batch_1", "-f", "json", "-o", "r.json", "--emit", url) == 3
    err = capsys.readouterr().err
    assert "could not emit safe:v0:result to http://127.0.0.1:9/events" in err
    assert "secret" not in err


def test_safe_is_a_sub_app_with_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["safe", "--help"]) == 0
    out = capsys.readouterr().out
    assert "score" in out and "compare" in out
