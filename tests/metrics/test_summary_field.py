"""A new count in the summary is one model field and one accumulator line: the worked example of
docs/architecture.md, applied as written to a copy of the package, reaches report.json."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import failproof

PACKAGE = Path(failproof.__file__).parent
GUIDE = Path(__file__).parents[2] / "docs" / "architecture.md"

#: Builds a report of three results, two of them served from the cache, and prints report.json.
SCRIPT = """
from failproof.core import CaseResult, Run
from failproof.report import build_report, renderers

results = [
    CaseResult(case_id=f"c{i}", suite="s", category="general", severity="low", cached=i < 2)
    for i in range(3)
]
report = build_report(Run(id="r", target={"name": "t"}), results)
print(renderers.get("json")().render(report))
"""


def _example() -> tuple[str, str]:
    """The field line and the accumulator line of the guide's example, as written there."""
    block = re.search(
        r"A count of results in the summary.*?```python\n(.*?)```", GUIDE.read_text(), re.S
    )
    assert block is not None, "docs/architecture.md lost its worked example"
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    assert [line.split(",")[0] for line in lines[::2]] == [
        "  # metrics/_summary_section.py",
        "  # metrics/_scores_acc.py",
    ]
    return lines[1][2:], lines[3][2:]


def _edited_copy(root: Path, field: str, count: str) -> None:
    """The package copied under ``root`` with the field added to `Summary` and the count to
    `COUNTED` (nothing else changed)."""
    copy = root / "failproof"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    section = copy / "metrics" / "_summary_section.py"
    text = section.read_text()
    assert "\n\nclass SuiteRow(" in text
    section.write_text(text.replace("\n\nclass SuiteRow(", f"{field}\n\n\nclass SuiteRow(", 1))
    accumulator = copy / "metrics" / "_scores_acc.py"
    text = accumulator.read_text()
    opening = "COUNTED: dict[str, Callable[[CaseResult], int]] = {\n"
    assert opening in text
    accumulator.write_text(text.replace(opening, opening + count + "\n", 1))


def _report_json(root: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=root,
        env={"PYTHONPATH": str(root), "HOME": str(root), "FAILPROOF_HOME": str(root / "home")},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_the_guides_two_lines_put_a_new_count_in_report_json(tmp_path: Path) -> None:
    field, count = _example()
    assert field == "    cached: int = 0"
    _edited_copy(tmp_path, field, count)
    summary = _report_json(tmp_path)["summary"]
    assert isinstance(summary, dict)
    assert summary["cached"] == 2
    assert summary["total_cases"] == 3
