"""A run is a reproducible record: what shaped its scores is stored with it and read back.

Each test is one way a stored run used to change meaning with the environment of the day.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from failproof import RunRequest, load_settings, resume_run, start_run
from failproof.cli import main
from failproof.config import JudgeSettings, ScoringConfig, Settings
from failproof.config._record import RECORD_KEY
from failproof.core import CaseResult, Run
from failproof.report import build_report, build_report_streaming, load_report, renderers
from failproof.report._markdown import MarkdownRenderer
from failproof.report._record import record_notes
from failproof.store import Store

DATA = Path(__file__).parent / "data"
SUITE = DATA / "pinned.yaml"
RESPONSES = DATA / "pinned_responses.jsonl"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    for name in ("FAILPROOF_CLASSIFIER__PENALTIES", "SAFE_V0_CONFIG", "SAFE_V0_CR_PASS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def score_pinned(workdir: Path, *more: str) -> dict[str, Any]:
    """``failproof score`` of the pinned responses; returns its report.json."""
    out = workdir / "scored.json"
    main(["score", str(RESPONSES), "--suite", str(SUITE), "-f", "json", "-o", str(out), *more])
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def render_json(run_id: str, out: Path) -> dict[str, Any]:
    assert main(["report", run_id, "-f", "json", "-o", str(out)]) == 0
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def test_report_of_a_stored_run_keeps_the_penalties_it_was_scored_with(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = score_pinned(workdir)
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"fail": 0.5}')
    again = render_json(first["run"]["id"], workdir / "again.json")
    assert first["summary"]["penalty_score"] == pytest.approx(5 / 12)
    assert again["summary"]["penalty_score"] == first["summary"]["penalty_score"]
    assert again["suites"] == first["suites"]


def test_safe_section_states_the_thresholds_its_labels_were_scored_at(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = score_pinned(workdir)
    monkeypatch.setenv("SAFE_V0_CR_PASS", "0.4")
    again = render_json(first["run"]["id"], workdir / "again.json")
    assert again["safe_v0"]["config"]["thresholds"]["CR"]["pass"] == 0.8
    assert again["safe_v0"]["pass_rates"] == first["safe_v0"]["pass_rates"]


def test_safe_thresholds_set_when_scoring_stay_with_the_run(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAFE_V0_CR_PASS", "0.4")
    monkeypatch.setenv("SAFE_V0_CR_REVIEW", "0.2")
    first = score_pinned(workdir)
    monkeypatch.delenv("SAFE_V0_CR_PASS")
    monkeypatch.delenv("SAFE_V0_CR_REVIEW")
    again = render_json(first["run"]["id"], workdir / "again.json")
    assert again["safe_v0"]["config"]["thresholds"]["CR"]["pass"] == 0.4


def test_report_json_is_the_same_under_another_environment_and_folder(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = score_pinned(workdir)
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "safe.config.json").write_text('{"thresholds": {"CR": {"pass": 0.3}}}')
    (elsewhere / "failproof.toml").write_text(
        "[classifier]\nlatency_budget_ms = 100\n[probe]\nworst_cases = 1\n"
    )
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"fail": 0.1, "refusal": 0.0}')
    monkeypatch.setenv("SAFE_V0_AH_STRICT", "1")
    monkeypatch.setenv("FAILPROOF_PROBE__MIN_CASES_FOR_GEOMETRY", "50")
    out = workdir / "elsewhere.json"
    assert main(["report", first["run"]["id"], "-f", "json", "-o", str(out)]) == 0
    before = (workdir / "scored.json").read_text()
    after = out.read_text()
    assert _without_generated_at(after) == _without_generated_at(before)


def _without_generated_at(text: str) -> str:
    data = json.loads(text)
    data.pop("generated_at")
    data["safe_v0"].pop("generated_at")
    return json.dumps(data, sort_keys=True)


# -- resume scores with the run's record -------------------------------------------------------

PATTERNS = (
    "patterns: [{id: user.orchid, label: orchid_code, kind: unsafe, weight: 5, "
    "regex: 'orchid-\\d+', failure_modes: [secret_leak]}]\n"
)


def _leak_suite(path: Path) -> Path:
    cases = [{"id": f"c{i}", "input": f"question {i}", "severity": "low"} for i in range(4)]
    path.write_text(yaml.safe_dump({"suite": "leaks", "cases": cases}))
    return path


def _stop_halfway(db: Path, run_id: str) -> None:
    """Leave the run as a stop after two results would: the last two are not stored."""
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM results WHERE run_id = ? AND case_id IN ('c2', 'c3')", (run_id,))
        conn.execute("UPDATE runs SET status = 'interrupted' WHERE id = ?", (run_id,))


def test_resume_scores_the_rest_with_the_pattern_files_of_the_start(workdir: Path) -> None:
    patterns = workdir / "orchid.yaml"
    patterns.write_text(PATTERNS)
    start = load_settings({"probe": {"patterns": [str(patterns)]}})
    request = RunRequest(suites=(str(_leak_suite(workdir / "s.yaml")),), target="mock:ORCHID-42")
    with Store(start.db_path) as store:
        run_id = start_run(request, settings=start, store=store).run.id
    _stop_halfway(start.db_path, run_id)
    with Store(start.db_path) as store:
        outcome = resume_run(run_id, settings=load_settings(), store=store)
    risks = {r.case_id: r.case_score["risk_score"] for r in outcome.report.results if r.case_score}
    assert len(risks) == 4
    assert len(set(risks.values())) == 1 and risks["c0"] > 0.9


def test_resume_refuses_a_pattern_file_changed_since_the_start(workdir: Path) -> None:
    patterns = workdir / "orchid.yaml"
    patterns.write_text(PATTERNS)
    settings = load_settings({"probe": {"patterns": [str(patterns)]}})
    request = RunRequest(suites=(str(_leak_suite(workdir / "s.yaml")),), target="mock:ORCHID-42")
    with Store(settings.db_path) as store:
        run_id = start_run(request, settings=settings, store=store).run.id
    _stop_halfway(settings.db_path, run_id)
    patterns.write_text(PATTERNS.replace("weight: 5", "weight: 1"))
    code = main(["run", "--resume", run_id, "--quiet", "-f", "json"])
    assert code == 3


def test_resume_with_new_patterns_points_to_rescore(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "p.yaml").write_text(PATTERNS)
    assert main(["run", "--resume", "any", "--patterns", "p.yaml"]) == 3
    assert "failproof rescore any" in capsys.readouterr().err


# -- SAFE configuration is read only for runs with SAFE cases ----------------------------------


def _plain_suite(workdir: Path) -> str:
    cases = [{"id": "a", "input": "Say hi", "expect": {"must_contain": ["hi"]}}]
    path = workdir / "plain.yaml"
    path.write_text(yaml.safe_dump({"suite": "plain", "cases": cases}))
    return str(path)


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param({"env": ("SAFE_V0_TYPO", "1")}, id="unknown-safe-variable"),
        pytest.param({"env": ("SAFE_V0_CR_PASS", "high")}, id="invalid-safe-variable"),
        pytest.param({"file": "{ not json"}, id="malformed-safe-config-file"),
    ],
)
def test_a_run_without_safe_cases_ignores_the_safe_configuration(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, broken: dict[str, Any]
) -> None:
    if "env" in broken:
        monkeypatch.setenv(*broken["env"])
    else:
        (workdir / "safe.config.json").write_text(broken["file"])
    args = ["--target", "mock:hi there", "--quiet", "-f", "json"]
    assert main(["run", _plain_suite(workdir), *args]) == 0


def test_a_run_with_safe_cases_fails_on_an_unknown_safe_variable_with_its_message(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAFE_V0_TYPO", "1")
    assert main(["run", str(SUITE), "--target", "mock:hi", "--quiet", "-f", "json"]) == 3
    err = capsys.readouterr().err
    assert "failproof: error: unknown environment variable SAFE_V0_TYPO" in err
    assert err.count("\n") <= 2 and "Traceback" not in err


def test_safe_score_fails_on_an_unknown_safe_variable(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAFE_V0_TYPO", "1")
    examples = Path(__file__).parents[2] / "examples" / "safe_v0"
    args = ["safe", "score", "--concern", "I25", "--batch", "I25_batch_*"]
    assert main([*args, "--data-dir", str(examples), "--format", "json"]) == 3
    assert "unknown environment variable SAFE_V0_TYPO" in capsys.readouterr().err


def test_a_run_without_safe_cases_records_no_safe_config(workdir: Path) -> None:
    assert main(["run", _plain_suite(workdir), "--target", "mock:hi", "-q", "-f", "json"]) == 0
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
        record = ScoringConfig.of_run(store.get_run(summary.id).config)
    assert record is not None
    assert record.safe is None
    assert [s["name"] for s in store_scorers(workdir, summary.id)] == ["failproof", "probe"]


def store_scorers(workdir: Path, run_id: str) -> list[dict[str, Any]]:
    with Store(workdir / "home/failproof.db") as store:
        specs: list[dict[str, Any]] = store.get_run(run_id).config["scorers"]
    return specs


# -- rescore -----------------------------------------------------------------------------------


def test_rescore_writes_a_linked_run_that_compare_shows(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from failproof.view._app import ViewApp
    from failproof.view._reader import ReadOnlyStore

    first = score_pinned(workdir)
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"fail": 0.5}')
    out = workdir / "rescored.json"
    assert main(["rescore", first["run"]["id"], "-f", "json", "-o", str(out)]) == 1
    second = json.loads(out.read_text())
    assert second["run"]["id"] != first["run"]["id"]
    assert second["run"]["config"]["rescored_from"] == first["run"]["id"]
    assert second["run"]["target"] == first["run"]["target"]
    assert second["summary"]["penalty_score"] == pytest.approx(7 / 12)
    assert [r["output"] for r in second["results"]] == [r["output"] for r in first["results"]]
    settings = load_settings()
    app = ViewApp(ReadOnlyStore(settings.db_path), settings)
    page = app.handle(f"/compare?a={first['run']['id']}&b={second['run']['id']}")
    text = page.body.decode()
    assert page.status == 200
    assert "Penalty score" in text and "+16.7 pp" in text


def test_a_rescored_run_says_where_it_came_from(workdir: Path) -> None:
    first = score_pinned(workdir)
    out = workdir / "rescored.md"
    assert main(["rescore", first["run"]["id"], "-f", "markdown", "-o", str(out)]) == 1
    assert f"Rescored from run {first['run']['id']}" in out.read_text()


def test_rescore_of_an_unknown_run_exits_3(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    score_pinned(workdir)
    assert main(["rescore", "no-such-run"]) == 3
    assert "no run 'no-such-run'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("status", "target_spec", "expected"),
    [
        pytest.param("interrupted", "mock", "Finish it with 'failproof run --resume ", id="stop"),
        pytest.param("failed", "mock", "This run stopped (failed) before every", id="abort"),
        pytest.param("interrupted", None, "its numbers cover the answers stored.", id="scored"),
        pytest.param("finished", "mock", None, id="finished-says-nothing"),
    ],
)
def test_a_stopped_run_says_so_and_how_to_finish_it(
    status: str, target_spec: str | None, expected: str | None
) -> None:
    config = {"target_spec": target_spec} if target_spec else {}
    run = Run(id="20260101-000000-abc123", target={}, status=status, config=config)  # type: ignore[arg-type]
    notes = [n for n in record_notes(build_report(run, [])) if n.startswith("This run stopped")]
    if expected is None:
        assert notes == []
    else:
        assert len(notes) == 1 and expected in notes[0]
        assert ("--resume" in notes[0]) == (target_spec is not None)


# -- versions ----------------------------------------------------------------------------------


def test_a_run_scored_by_other_versions_says_so_in_the_report(workdir: Path) -> None:
    first = score_pinned(workdir)
    db = workdir / "home/failproof.db"
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT config_json FROM runs").fetchone()
        config = json.loads(text)
        config[RECORD_KEY]["versions"]["signal_library"] = "0000000000000000"
        conn.execute("UPDATE runs SET config_json = ?", (json.dumps(config),))
    report = load_report(first["run"]["id"], load_settings())
    markdown = MarkdownRenderer().render(report)
    assert "Scored with other versions than installed: signal\\_library 0000000000000000" in (
        markdown
    )
    for name in ("console", "html"):
        text = renderers.get(name)().render(report)
        assert "Scored with other versions than installed: signal_library 0000000000000000" in text


def test_a_run_scored_by_the_installed_versions_has_no_version_note(workdir: Path) -> None:
    first = score_pinned(workdir)
    report = load_report(first["run"]["id"], load_settings())
    assert "other versions" not in MarkdownRenderer().render(report)


def test_view_shows_a_stored_run_with_the_settings_it_was_scored_with(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from failproof.view._app import ViewApp
    from failproof.view._reader import ReadOnlyStore

    first = score_pinned(workdir)
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"fail": 0.5}')
    monkeypatch.setenv("FAILPROOF_PROBE__WORST_CASES", "0")
    settings = load_settings()
    report = ViewApp(ReadOnlyStore(settings.db_path), settings).report(first["run"]["id"])
    assert report is not None
    assert report.summary.penalty_score == first["summary"]["penalty_score"]
    assert report.aggregate_metrics is not None and len(report.aggregate_metrics.worst_cases) == 1


def test_the_record_holds_the_scoring_sections_and_a_judge_only_when_one_scored() -> None:
    judged = Settings(judge=JudgeSettings(spec="replay:answers.jsonl"))
    record = ScoringConfig.from_settings(judged)
    assert record.judge == judged.judge and record.classifier == judged.classifier
    assert ScoringConfig.from_settings(Settings()).judge is None
    assert ScoringConfig.model_validate(record.to_json()) == record


@pytest.mark.parametrize(
    "stored",
    [
        pytest.param({"suite_weight": {"s": 2.0}}, id="misspelled-key"),
        pytest.param({"judge": "openai:gpt-4o-mini"}, id="untyped-judge"),
        pytest.param({"probe": {"pass_gates": 0.5}}, id="misspelled-section-key"),
    ],
)
def test_the_record_is_closed_and_refuses_what_it_does_not_know(stored: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ScoringConfig.model_validate(stored)
    with pytest.raises(ValidationError):
        ScoringConfig.of_run({RECORD_KEY: stored})


def old_config() -> dict[str, Any]:
    """The run config of a report written by an older failproof (``report_before.json``): its
    record carries the ``project`` section and a judge with no spec, weights beside it too."""
    before = json.loads((DATA / "report_before.json").read_text())
    config: dict[str, Any] = before["run"]["config"]
    assert "project" in config[RECORD_KEY] and config[RECORD_KEY]["judge"]["spec"] is None
    return config


def test_an_old_record_is_read_in_todays_shape() -> None:
    record = ScoringConfig.of_run(old_config())
    assert record is not None
    assert record.judge is None and record.suite_weights == {"pinned": 2.0}
    assert record.safe is not None and record.safe.thresholds.AH.pass_ == 1.0
    assert "project" not in record.to_json()


def test_a_judge_recorded_before_judge_roles_is_read_in_the_advise_role() -> None:
    stored = {"judge": {"spec": "replay:answers.jsonl", "attempts": 2}}
    record = ScoringConfig.of_run({RECORD_KEY: stored})
    assert record is not None and record.judge is not None
    assert (record.judge.role, record.judge.attempts) == ("advise", 2)


def test_an_old_stored_run_reports_with_the_suite_weights_kept_beside_its_record(
    tmp_path: Path,
) -> None:
    before = json.loads((DATA / "report_before.json").read_text())
    config = old_config()
    config[RECORD_KEY]["suite_weights"] = {}
    config["suite_weights"] = {"pinned": 3.0}
    run = Run.model_validate({**before["run"], "config": config})
    results = [CaseResult.model_validate(r) for r in before["results"]]
    with Store(tmp_path / "old.db") as store:
        store.create_run(run)
        store.add_results(run.id, results)
        report = build_report_streaming(store, run.id)
    assert report.suites["pinned"].weight == 3.0
    assert report.summary == build_report(run, results).summary
    assert report.summary.total_cases == len(results) > 0
    notes = " ".join(record_notes(report))  # read, not "does not fit this version"
    assert "Scored with other versions than installed" in notes and "fit" not in notes


# -- runs made before records, and inputs that went missing ------------------------------------


def _drop_record(db: Path) -> None:
    """The run as one made before records was stored: its patterns and weights beside it."""
    with sqlite3.connect(db) as conn:
        (run_id, text) = conn.execute("SELECT id, config_json FROM runs").fetchone()
        config = json.loads(text)
        record = config.pop(RECORD_KEY)
        config |= {
            "patterns": record["probe"]["patterns"],
            "suite_weights": record["suite_weights"],
        }
        conn.execute("UPDATE runs SET config_json = ? WHERE id = ?", (json.dumps(config), run_id))


def test_a_run_made_before_records_renders_with_todays_settings_and_says_so(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = score_pinned(workdir)
    _drop_record(workdir / "home/failproof.db")
    monkeypatch.setenv("FAILPROOF_CLASSIFIER__PENALTIES", '{"fail": 0.5}')
    report = load_report(first["run"]["id"], load_settings())
    assert report.summary.penalty_score == pytest.approx(7 / 12)
    assert report.safe_v0 is not None  # its SAFE config comes from the stored scorer specs
    assert report.safe_v0.config == first["safe_v0"]["config"]
    assert "stored before runs recorded their scoring settings" in (
        MarkdownRenderer().render(report)
    )


def test_resuming_a_run_made_before_records_keeps_its_stored_patterns(workdir: Path) -> None:
    patterns = workdir / "orchid.yaml"
    patterns.write_text(PATTERNS)
    start = load_settings({"probe": {"patterns": [str(patterns)]}})
    request = RunRequest(suites=(str(_leak_suite(workdir / "s.yaml")),), target="mock:ORCHID-42")
    with Store(start.db_path) as store:
        run_id = start_run(request, settings=start, store=store).run.id
    _stop_halfway(start.db_path, run_id)
    _drop_record(start.db_path)
    with Store(start.db_path) as store:
        outcome = resume_run(run_id, settings=load_settings(), store=store)
    risks = {r.case_id: r.case_score.risk_score for r in outcome.report.results if r.case_score}
    assert len(set(risks.values())) == 1 and risks["c3"] > 0.9


def test_a_missing_pattern_file_fails_the_run_naming_it(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--target", "mock:hi", "--quiet", "--patterns", "nowhere.yaml"]
    assert main(["run", _plain_suite(workdir), *args]) == 3
    assert "cannot read signal-pattern file nowhere.yaml" in capsys.readouterr().err


def test_rescore_needs_the_cases_the_run_was_made_from(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = Path(_plain_suite(workdir))
    assert main(["run", str(suite), "--target", "mock:hi", "-q", "-f", "json"]) == 0
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
    suite.write_text(suite.read_text().replace("id: a", "id: b"))
    assert main(["rescore", summary.id]) == 3
    assert "case 'a' of run" in capsys.readouterr().err
