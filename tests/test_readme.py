"""The README's Python example runs as written (with the mock target standing in for OpenAI)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_api_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"## Python API.*?```python\n(.*?)```", text, re.S)
    assert match is not None, "the README has no Python API example"
    code = match.group(1)
    assert 'target="openai:gpt-4o-mini"' in code
    code = code.replace('target="openai:gpt-4o-mini"', 'target="mock"')
    code = code.replace('"examples/', f'"{ROOT.as_posix()}/examples/')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    exec(compile(code, "README.md", "exec"), {})
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.html", "report.json"]


NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
NUMBERS += " fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three"


def test_readme_counts_the_suites_and_cases_that_ship() -> None:
    from failproof.suites import load_suites
    from failproof.suites._resolve import builtin_suite_names

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"ships ([\w-]+) built-in suites, (\d[\d,]*) cases", text)
    assert match is not None, "the README does not say how many suites and cases ship"
    names = builtin_suite_names()
    cases = sum(len(suite) for suite in load_suites(names))
    assert NUMBERS.split().index(match.group(1)) == len(names)
    assert int(match.group(2).replace(",", "")) == cases
