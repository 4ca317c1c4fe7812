"""Configuration precedence: flags > environment > config file > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.config import find_config_file, load_settings
from failproof.errors import ConfigError


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("FAILPROOF_"):
            monkeypatch.delenv(name)


def test_defaults_without_any_source(tmp_path: Path) -> None:
    settings = load_settings(cwd=tmp_path)
    assert settings.run.concurrency == 8
    assert settings.home == Path(".failproof")
    assert settings.db_path == Path(".failproof/failproof.db")


def test_config_file_over_defaults(tmp_path: Path) -> None:
    (tmp_path / "failproof.toml").write_text("[run]\nconcurrency = 4\ntimeout_s = 9\n")
    settings = load_settings(cwd=tmp_path)
    assert (settings.run.concurrency, settings.run.timeout_s) == (4, 9.0)


def test_pyproject_tool_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.failproof.run]\nconcurrency = 3\n")
    assert find_config_file(tmp_path) == tmp_path / "pyproject.toml"
    assert load_settings(cwd=tmp_path).run.concurrency == 3


def test_pyproject_without_tool_table_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config_file(tmp_path) is None


def test_failproof_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.failproof.run]\nconcurrency = 3\n")
    (tmp_path / "failproof.toml").write_text("[run]\nconcurrency = 5\n")
    assert load_settings(cwd=tmp_path).run.concurrency == 5


def test_environment_over_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "failproof.toml").write_text("[run]\nconcurrency = 4\ntimeout_s = 9\n")
    monkeypatch.setenv("FAILPROOF_RUN__CONCURRENCY", "16")
    settings = load_settings(cwd=tmp_path)
    assert settings.run.concurrency == 16  # from the environment
    assert settings.run.timeout_s == 9.0  # the file still supplies the rest


def test_flags_over_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAILPROOF_RUN__CONCURRENCY", "16")
    settings = load_settings({"run": {"concurrency": 2, "timeout_s": None}}, cwd=tmp_path)
    assert settings.run.concurrency == 2
    assert settings.run.timeout_s == 60.0  # a flag left at None falls through


def test_failproof_home_moves_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "elsewhere"))
    assert load_settings(cwd=tmp_path).db_path == tmp_path / "elsewhere" / "failproof.db"


def test_json_valued_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAILPROOF_PROBE__SEVERITY_WEIGHTS", '{"low": 0.1, "critical": 3}')
    weights = load_settings(cwd=tmp_path).probe.severity_weights
    assert weights == {"low": 0.1, "critical": 3.0}


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        pytest.param("[run]\nconcurrency = 0\n", r"invalid setting run\.concurrency", id="range"),
        pytest.param("[run]\nspeed = 1\n", r"invalid setting run\.speed", id="unknown-key"),
        pytest.param("[run\n", r"cannot read config file", id="toml-syntax"),
        pytest.param(
            "[run]\nx = " + "[" * 50_000 + "]" * 50_000 + "\n",
            r"failproof\.toml: cannot read config file: nested too deeply",
            id="nested-thousands-deep",
        ),
        pytest.param(
            "# " + "x" * (1 << 20) + "\n", r"larger than 1,048,576 bytes", id="over-a-megabyte"
        ),
    ],
)
def test_bad_config_file_is_a_config_error(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "failproof.toml").write_text(toml)
    with pytest.raises(ConfigError, match=message):
        load_settings(cwd=tmp_path)


def test_a_config_file_in_utf16_or_latin1_is_read_or_named(tmp_path: Path) -> None:
    path = tmp_path / "failproof.toml"
    path.write_bytes("[run]\nconcurrency = 3 # café\n".encode("utf-16"))
    assert load_settings(cwd=tmp_path).run.concurrency == 3
    path.write_bytes("[run]\nconcurrency = 3 # café\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"failproof\.toml:2: not valid UTF-8"):
        load_settings(cwd=tmp_path)


def test_bad_environment_value_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAILPROOF_RUN__CONCURRENCY", "many")
    with pytest.raises(ConfigError, match=r"run\.concurrency"):
        load_settings(cwd=tmp_path)


def test_explicit_config_file(tmp_path: Path) -> None:
    path = tmp_path / "custom.toml"
    path.write_text("[report]\noutput_dir = 'out'\n")
    assert load_settings(config_file=path, cwd=tmp_path).report.output_dir == "out"
