"""Medium 9: a report file's content never chooses where failproof writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.conftest import write_responses, write_suite

from failproof.cli import main
from failproof.core import Run
from failproof.core._result import is_run_id


def a_report(workdir: Path) -> dict[str, object]:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["y"]}}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "y"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q", "-f", "json", "-o", "r.json"]) == 0
    data: dict[str, object] = json.loads((workdir / "r.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    "evil_id",
    [
        pytest.param("../../escaped", id="parent"),
        pytest.param("/tmp/failproof-escaped-run", id="absolute"),
        pytest.param("a/../../b", id="inner-dots"),
        pytest.param("..", id="dots"),
        pytest.param("x\\..\\..\\y", id="backslashes"),
        pytest.param("", id="empty"),
    ],
)
@pytest.mark.parametrize("formats", [None, "html", "markdown,json"])
def test_a_report_whose_run_id_is_a_path_is_refused_and_writes_nothing(
    workdir: Path, evil_id: str, formats: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    data = a_report(workdir)
    data["run"]["id"] = evil_id  # type: ignore[index]
    evil = workdir / "evil.json"
    evil.write_text(json.dumps(data), encoding="utf-8")
    before = sorted(p for p in workdir.parent.rglob("*") if p.is_file())
    args = ["report", str(evil), *(["-f", formats] if formats else [])]
    assert main(args) == 3
    assert "not a run id" in capsys.readouterr().err
    assert sorted(p for p in workdir.parent.rglob("*") if p.is_file()) == before
    assert not Path("/tmp/failproof-escaped-run").exists()


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("20261124-081500-3f9a1c", True),
        ("r1", True),
        ("a.b_c-d", True),
        ("../x", False),
        (".hidden", False),
        ("a" * 129, False),
        ("a b", False),
    ],
)
def test_run_ids_are_single_safe_names(value: str, ok: bool) -> None:
    assert is_run_id(value) is ok
    if not ok:
        with pytest.raises(ValueError, match="not a run id"):
            Run(id=value, target={})
