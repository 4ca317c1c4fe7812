"""Section 6: SAFE_V0_* variables, safe.config.json, and flags > env > file > defaults."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.safe.factories import EXAMPLES

from failproof.errors import ConfigError
from failproof.safe import SafeConfig, load_safe_config
from failproof.safe._settings import ENV_VARIABLES


def _file(tmp_path: Path, data: object, text: str | None = None) -> Path:
    path = tmp_path / "safe.config.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    return path


def test_defaults_without_any_source(tmp_path: Path) -> None:
    assert load_safe_config(environ={}, cwd=tmp_path) == SafeConfig()


@pytest.mark.parametrize(
    ("name", "value", "check"),
    [
        pytest.param(
            "SAFE_V0_CR_PASS", "0.9", lambda c: c.thresholds.CR.pass_ == 0.9, id="cr-pass"
        ),
        pytest.param(
            "SAFE_V0_CR_REVIEW", "0.4", lambda c: c.thresholds.CR.review == 0.4, id="cr-review"
        ),
        pytest.param(
            "SAFE_V0_AH_PASS", "0.9", lambda c: c.thresholds.AH.pass_ == 0.9, id="ah-pass"
        ),
        pytest.param(
            "SAFE_V0_AH_REVIEW", "0.6", lambda c: c.thresholds.AH.review == 0.6, id="ah-review"
        ),
        pytest.param(
            "SAFE_V0_AC_PASS", "0.7", lambda c: c.thresholds.AC.pass_ == 0.7, id="ac-pass"
        ),
        pytest.param(
            "SAFE_V0_AC_REVIEW", "0.3", lambda c: c.thresholds.AC.review == 0.3, id="ac-review"
        ),
        pytest.param(
            "SAFE_V0_AH_STRICT", "true", lambda c: c.strict_ah is True, id="ah-strict-true"
        ),
        pytest.param("SAFE_V0_AH_STRICT", "0", lambda c: c.strict_ah is False, id="ah-strict-zero"),
        pytest.param(
            "SAFE_V0_REPORT_DIR", "out/r", lambda c: c.report_dir == Path("out/r"), id="report-dir"
        ),
        pytest.param("SAFE_V0_AH_WEIGHT", "1.5", lambda c: c.weights.AH == 1.5, id="ah-weight"),
        pytest.param("SAFE_V0_MATCH", "semantic", lambda c: c.match == "semantic", id="match"),
        pytest.param("SAFE_V0_SIMILARITY", "0.7", lambda c: c.similarity == 0.7, id="similarity"),
        pytest.param(
            "SAFE_V0_FORMATS",
            "json, markdown",
            lambda c: c.report_formats == ("json", "markdown"),
            id="formats",
        ),
        pytest.param("SAFE_V0_SEED", "7", lambda c: c.seed == 7, id="seed"),
        pytest.param(
            "SAFE_V0_DATA_DIR", "data", lambda c: c.data_dir == Path("data"), id="data-dir"
        ),
    ],
)
def test_each_environment_variable(
    tmp_path: Path, name: str, value: str, check: Callable[[SafeConfig], bool]
) -> None:
    assert check(load_safe_config(environ={name: value}, cwd=tmp_path))


def test_spec_environment_variables_are_all_known() -> None:
    spec = {
        "SAFE_V0_CR_PASS",
        "SAFE_V0_CR_REVIEW",
        "SAFE_V0_AH_PASS",
        "SAFE_V0_AH_REVIEW",
        "SAFE_V0_AC_PASS",
        "SAFE_V0_AC_REVIEW",
        "SAFE_V0_AH_STRICT",
        "SAFE_V0_REPORT_DIR",
    }
    assert spec <= set(ENV_VARIABLES)


def test_config_file_with_comments_as_in_the_spec(tmp_path: Path) -> None:
    text = """// safe.config.json
    {
      "thresholds": {"CR": { "pass": 0.8, "review": 0.5 }},
      "weights": {"CR": 1.0, "AH": 1.5, /* clinical safety */ "AC": 1.0},
      "strictAH": true,
      "reportFormats": ["json", "console", "markdown"],
      "reportDir": "a // not a comment"
    }"""
    config = load_safe_config(environ={}, config_file=_file(tmp_path, None, text))
    assert config.weights.AH == 1.5
    assert config.strict_ah is True
    assert config.report_dir == Path("a // not a comment")


def test_the_example_config_loads() -> None:
    config = load_safe_config(environ={}, config_file=EXAMPLES / "safe.config.json")
    assert config.weights_for("Documentation_Gap", "I25-safety").model_dump() == {
        "CR": 1.0,
        "AH": 3.0,
        "AC": 2.0,
    }
    assert config.thresholds_for("Safety_Signal").CR.pass_ == 0.9
    assert config.thresholds_for("Safety_Signal").CR.review == 0.5


def test_safe_config_json_in_the_current_folder_is_found(tmp_path: Path) -> None:
    _file(tmp_path, {"strictAH": True})
    assert load_safe_config(environ={}, cwd=tmp_path).strict_ah is True


def test_safe_v0_config_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "elsewhere.json"
    path.write_text('{"weights": {"AC": 2}}')
    config = load_safe_config(environ={"SAFE_V0_CONFIG": str(path)}, cwd=tmp_path)
    assert config.weights.AC == 2


@pytest.mark.parametrize(
    ("flags", "env", "file", "expected"),
    [
        pytest.param(
            {"strictAH": False},
            {"SAFE_V0_AH_STRICT": "true"},
            {"strictAH": True},
            False,
            id="flag-beats-env-and-file",
        ),
        pytest.param(
            {"strictAH": None},
            {"SAFE_V0_AH_STRICT": "false"},
            {"strictAH": True},
            False,
            id="env-beats-file",
        ),
        pytest.param({}, {}, {"strictAH": True}, True, id="file-beats-default"),
        pytest.param({}, {}, {}, False, id="default"),
    ],
)
def test_precedence_flags_env_file_defaults(
    tmp_path: Path,
    flags: dict[str, object],
    env: dict[str, str],
    file: dict[str, object],
    expected: bool,
) -> None:
    path = _file(tmp_path, file)
    assert load_safe_config(flags, config_file=path, environ=env).strict_ah is expected


def test_precedence_merges_nested_keys(tmp_path: Path) -> None:
    path = _file(
        tmp_path, {"thresholds": {"CR": {"pass": 0.9, "review": 0.6}}, "weights": {"AC": 3}}
    )
    config = load_safe_config(config_file=path, environ={"SAFE_V0_CR_PASS": "0.95"})
    assert (config.thresholds.CR.pass_, config.thresholds.CR.review) == (0.95, 0.6)
    assert config.weights.AC == 3


@pytest.mark.parametrize(
    ("env", "file", "message"),
    [
        pytest.param(
            {"SAFE_V0_CR_PAS": "1"},
            {},
            "unknown environment variable SAFE_V0_CR_PAS",
            id="unknown-env",
        ),
        pytest.param(
            {"SAFE_V0_CR_PASS": "high"},
            {},
            "SAFE_V0_CR_PASS='high' is invalid",
            id="non-number-env",
        ),
        pytest.param(
            {"SAFE_V0_AH_STRICT": "maybe"}, {}, "expected true or false", id="non-bool-env"
        ),
        pytest.param(
            {"SAFE_V0_CR_PASS": "1.5"},
            {},
            "thresholds.CR.pass: Input should be less than or equal to 1 "
            "(from the SAFE_V0_* environment)",
            id="out-of-range-env",
        ),
        pytest.param(
            {},
            {"strictAh": True},
            "strictAh: Extra inputs are not permitted (from config file",
            id="typo-key-in-file",
        ),
        pytest.param(
            {},
            {"thresholds": {"AC": {"pass": 0.4, "review": 0.6}}},
            "review (0.6) is above pass (0.4)",
            id="review-above-pass",
        ),
        pytest.param(
            {}, {"weights": {"CR": 0, "AH": 0, "AC": 0}}, "weights add up to 0", id="zero-weights"
        ),
        pytest.param(
            {},
            {"archetypeThresholds": {"X": {"CR": {"review": 0.9}}}},
            "archetypeThresholds.X: review (0.9) is above pass (0.8)",
            id="bad-archetype-override",
        ),
        pytest.param(
            {}, {"match": "fuzzy"}, "match: Input should be 'exact' or 'semantic'", id="bad-match"
        ),
    ],
)
def test_invalid_settings_say_what_and_where(
    tmp_path: Path, env: dict[str, str], file: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=None) as info:
        load_safe_config(config_file=_file(tmp_path, file), environ=env)
    assert message in str(info.value)


def test_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = _file(tmp_path, None, '{\n  "strictAH": tru\n}')
    with pytest.raises(ConfigError, match=r"safe.config.json:2:15: not valid JSON"):
        load_safe_config(config_file=path, environ={})


def test_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_safe_config(config_file=tmp_path / "nope.json", environ={})


def test_config_is_frozen() -> None:
    with pytest.raises(ValueError, match="frozen"):
        SafeConfig().strict_ah = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param('{"a": 1} // end', {"a": 1}, id="line-comment"),
        pytest.param('{"a": /* x */ 1}', {"a": 1}, id="block-comment"),
        pytest.param('{"a": "x\\" // y"}', {"a": 'x" // y'}, id="escaped-quote-in-string"),
        pytest.param('{"a": "/* not */"}', {"a": "/* not */"}, id="block-marker-in-string"),
    ],
)
def test_json_comments_are_stripped_outside_strings(text: str, expected: object) -> None:
    from failproof.safe._jsonc import strip_json_comments

    assert json.loads(strip_json_comments(text)) == expected
