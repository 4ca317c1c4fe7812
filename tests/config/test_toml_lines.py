"""Where a key is written in a TOML file: tables, arrays of tables, dotted and quoted keys."""

from __future__ import annotations

import pytest

from failproof.config._toml_lines import line_of

TEXT = """\
# comment
[run]
concurrency = 4
"quoted key" = 1

[[project.targets]]
spec = "mock"

[[project.targets]]
spec = "mock:x"
params.temperature = 0

[tool.failproof.project]
suites = [
  "a=b",
]
"""


@pytest.mark.parametrize(
    ("loc", "line"),
    [
        pytest.param(("run", "concurrency"), 3, id="key-in-table"),
        pytest.param(("run", "quoted key"), 4, id="quoted-key"),
        pytest.param(("project", "targets", 0, "spec"), 7, id="first-array-table"),
        pytest.param(("project", "targets", 1, "spec"), 10, id="second-array-table"),
        pytest.param(("project", "targets", 1, "label"), 9, id="missing-key-falls-to-table"),
        pytest.param(("project", "targets", 1, "params", "temperature"), 11, id="dotted-key"),
        pytest.param(("tool", "failproof", "project", "suites", 0), 14, id="inline-array-item"),
        pytest.param(("judge", "spec"), None, id="not-written"),
    ],
)
def test_line_of(loc: tuple[str | int, ...], line: int | None) -> None:
    assert line_of(TEXT, loc) == line
