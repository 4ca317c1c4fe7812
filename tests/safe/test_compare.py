"""Regression detection: paired test, Holm, label changes, and ``failproof safe compare``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.safe.factories import EXAMPLES

from failproof.cli import main
from failproof.errors import InputError
from failproof.safe._compare import compare_reports, load_report
from failproof.safe._paired import holm, sign_flip_test


def _case(test_id: str, score: float, label: str = "Pass") -> dict[str, Any]:
    return {
        "test_id": test_id,
        "batch_id": "b",
        "archetype": "A",
        "label": label,
        "scores": {"CR": score, "AH": 1.0, "AC": score, "composite": (2 * score + 1) / 3},
    }


def _report(tmp_path: Path, name: str, cases: list[dict[str, Any]]) -> Path:
    path = tmp_path / name
    data = {"report_type": "SAFE_v0", "concern_id": "C", "generated_at": name, "results": cases}
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("diffs", "p"),
    [
        pytest.param([1.0, 1.0, 1.0], 2 / 8, id="three-positive-exact"),
        pytest.param([-1.0] * 5, 2 / 32, id="five-negative-exact"),
        pytest.param([1.0, -1.0], 1.0, id="balanced"),
        pytest.param([0.0, 0.0], 1.0, id="no-difference"),
        pytest.param([0.0, 2.0, 0.0], 1.0, id="zeros-do-not-count"),
    ],
)
def test_sign_flip_test_exact_p_values(diffs: list[float], p: float) -> None:
    assert sign_flip_test(diffs).p_value == pytest.approx(p)


def test_sign_flip_test_samples_beyond_16_and_is_seeded() -> None:
    diffs = [-0.2] * 30 + [0.1] * 10
    first = sign_flip_test(diffs, seed=1, resamples=2000)
    assert first.method.startswith("sign-flip permutation")
    assert first.p_value < 0.01
    assert sign_flip_test(diffs, seed=1, resamples=2000) == first


def test_holm_adjustment() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_significant_regression_is_detected(tmp_path: Path) -> None:
    base = _report(tmp_path, "a.json", [_case(f"t{i}", 1.0) for i in range(40)])
    worse = [_case(f"t{i}", 0.5, "Review") for i in range(20)] + [
        _case(f"t{i}", 1.0) for i in range(20, 40)
    ]
    result = compare_reports(load_report(base), load_report(_report(tmp_path, "b.json", worse)))
    assert result.regression
    cr = next(d for d in result.deltas if d.metric == "CR")
    assert cr.delta == pytest.approx(-0.25)
    assert cr.verdict == "regression"
    assert cr.low is not None and cr.high is not None and cr.low <= -0.25 <= cr.high
    assert len(result.worse) == 20 and result.better == ()


def test_improvement_and_noise_are_not_regressions(tmp_path: Path) -> None:
    base = _report(tmp_path, "a.json", [_case(f"t{i}", 0.5, "Review") for i in range(30)])
    better = _report(tmp_path, "b.json", [_case(f"t{i}", 1.0) for i in range(30)])
    result = compare_reports(load_report(base), load_report(better))
    assert not result.regression
    assert {d.verdict for d in result.deltas} == {"improvement", "no significant change"}
    one_worse = [_case("t0", 0.0, "Fail")] + [_case(f"t{i}", 0.5, "Review") for i in range(1, 30)]
    noisy = compare_reports(load_report(base), load_report(_report(tmp_path, "c.json", one_worse)))
    assert not noisy.regression
    assert [c.test_id for c in noisy.worse] == ["t0"]


def test_cases_only_in_one_report_are_listed(tmp_path: Path) -> None:
    base = _report(tmp_path, "a.json", [_case("t1", 1.0), _case("t2", 1.0)])
    cur = _report(tmp_path, "b.json", [_case("t2", 1.0), _case("t3", 1.0)])
    result = compare_reports(load_report(base), load_report(cur))
    assert (result.only_baseline, result.only_current, result.paired) == (("t1",), ("t3",), 1)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("{", "not valid JSON", id="not-json"),
        pytest.param(
            '{"report_type": "failproof_run"}', "not a SAFE v0 JSON report", id="other-report"
        ),
        pytest.param('{"report_type": "SAFE_v0"}', "has no 'results' list", id="no-results"),
        pytest.param(
            '{"report_type": "SAFE_v0", "results": [{"test_id": "x", "label": "Good"}]}',
            "results[0].label:",
            id="bad-label",
        ),
    ],
)
def test_invalid_reports_are_input_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(InputError, match=None) as info:
        load_report(path)
    assert message in str(info.value)


def test_no_common_case_is_an_input_error(tmp_path: Path) -> None:
    a = load_report(_report(tmp_path, "a.json", [_case("t1", 1.0)]))
    b = load_report(_report(tmp_path, "b.json", [_case("t2", 1.0)]))
    with pytest.raises(InputError, match="no test_id in common"):
        compare_reports(a, b)


@pytest.fixture
def example_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    for name, data_dir in (("base.json", EXAMPLES), ("cand.json", EXAMPLES / "candidate")):
        args = ["safe", "score", "--concern", "I25", "--data-dir", str(data_dir), "--batch", "*"]
        main([*args, "-f", "json", "-o", name])
    return tmp_path / "base.json", tmp_path / "cand.json"


def test_compare_cli_on_the_example_reports(
    example_reports: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["safe", "compare", *map(str, example_reports)]) == 0
    out = capsys.readouterr().out
    assert "no significant regression" in out
    assert "Label got worse (7)" in out
    assert "I25-B3-205" in out
    assert "Label got better (2)" in out


def test_compare_cli_exits_1_on_a_significant_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _report(tmp_path, "a.json", [_case(f"t{i}", 1.0) for i in range(40)])
    cur = _report(tmp_path, "b.json", [_case(f"t{i}", 0.4, "Fail") for i in range(40)])
    assert main(["safe", "compare", str(base), str(cur), "-f", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["regression"] is True
    assert (
        main(
            ["safe", "compare", str(base), str(cur), "-f", "markdown", "-o", str(tmp_path / "c.md")]
        )
        == 1
    )
    assert "**Regression**" in (tmp_path / "c.md").read_text()


def test_compare_cli_writes_each_format_with_its_extension_into_a_folder(
    example_reports: tuple[Path, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "comparison"
    args = ["safe", "compare", *map(str, example_reports), "-f", "json,markdown", "-o", str(folder)]
    assert main(args) == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "SAFE_v0_comparison.json",
        "SAFE_v0_comparison.md",
    ]
    assert json.loads((folder / "SAFE_v0_comparison.json").read_text())["regression"] is False
    assert "SAFE v0" in (folder / "SAFE_v0_comparison.md").read_text()


def test_compare_cli_bad_file_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["safe", "compare", str(tmp_path / "no.json"), str(tmp_path / "no.json")]) == 3
    assert "cannot read the report" in capsys.readouterr().err
