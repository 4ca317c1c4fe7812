"""High 5: a case's json_schema cannot freeze a run; patterns RE2 cannot take are refused."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.conftest import write_suite

from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.errors import SuiteError
from failproof.scoring import build_scorers, score_case
from failproof.suites import load_suite

EVIL = "^([a-zA-Z0-9]+\\s?)*$"
ATTACK = "a" * 34 + "!"
#: Not a timing: how long a hang may last before the test calls it one (linear time is ~1 ms).
GUARD_S = 60


def classify_in_thread(schema: dict[str, Any], output: str) -> list[str]:
    case = Case.model_validate(
        {"id": "c", "suite": "s", "input": "x", "expect": {"format": "json", "json_schema": schema}}
    )
    rules: list[str] = []

    def work() -> None:
        result = score_case(case, Response.from_output(output), build_scorers(ScoringConfig()))
        assert result.classification is not None
        rules.extend(r.rule for r in result.classification.reasons)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(GUARD_S)
    assert not thread.is_alive(), "the schema check is still running: catastrophic backtracking"
    return rules


@pytest.mark.parametrize(
    ("schema", "output"),
    [
        pytest.param(
            {"type": "object", "properties": {"name": {"type": "string", "pattern": EVIL}}},
            f'{{"name": "{ATTACK}"}}',
            id="pattern",
        ),
        pytest.param(
            {"type": "object", "patternProperties": {EVIL: {"type": "integer"}}},
            f'{{"{ATTACK}": "x", "{"b" * 30}": "y"}}',
            id="pattern-properties",
        ),
        pytest.param(
            {
                "type": "object",
                "patternProperties": {EVIL: {}},
                "additionalProperties": False,
            },
            f'{{"{ATTACK}": 1}}',
            id="additional-properties",
        ),
        pytest.param(
            {"type": "object", "propertyNames": {"pattern": EVIL}},
            f'{{"{ATTACK}": 1}}',
            id="property-names",
        ),
    ],
)
def test_a_catastrophic_schema_pattern_runs_in_linear_time(
    schema: dict[str, Any], output: str
) -> None:
    assert "json_schema" in classify_in_thread(schema, output)


def test_a_matching_answer_still_passes_the_linear_check() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string", "pattern": EVIL}}}
    assert classify_in_thread(schema, '{"name": "plain words here"}') == []


@pytest.mark.parametrize(
    "pattern",
    [
        pytest.param("^(a)\\1$", id="backreference"),
        pytest.param("^(?=x)x", id="lookahead"),
        pytest.param("(?<!a)b", id="lookbehind"),
    ],
)
def test_a_suite_with_a_pattern_re2_cannot_take_is_refused_naming_it(
    tmp_path: Path, pattern: str
) -> None:
    schema = {"type": "string", "pattern": pattern}
    path = write_suite(
        tmp_path, [{"id": "c", "input": "x", "expect": {"format": "json", "json_schema": schema}}]
    )
    with pytest.raises(SuiteError, match="cannot run on RE2") as caught:
        load_suite(path)
    assert repr(pattern) in str(caught.value)
