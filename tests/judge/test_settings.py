"""The judge's settings: resolved at the edge, typed and frozen, the key never dumped."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from failproof.cli import main
from failproof.config import JudgeSettings, Settings, load_settings
from failproof.config._settings import with_judge_key
from failproof.errors import ConfigError

KEY = "sk-settings-secret-abcdef012345"


def test_the_key_is_in_no_dump_and_no_repr() -> None:
    settings = Settings(judge=JudgeSettings(spec="openai:j", api_key=SecretStr(KEY)))
    for text in (
        settings.model_dump_json(),
        repr(settings),
        str(settings.model_dump()),
        str(settings.judge.public()),
    ):
        assert KEY not in text


def test_the_settings_are_frozen() -> None:
    with pytest.raises(ValidationError):
        JudgeSettings().spec = "openai:j"  # type: ignore[misc]


def test_the_judge_comes_from_the_environment_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAILPROOF_JUDGE__SPEC", "local")
    monkeypatch.setenv("FAILPROOF_JUDGE__ATTEMPTS", "5")
    judge = load_settings().judge
    assert (judge.spec, judge.attempts) == ("local", 5)


@pytest.mark.parametrize(
    ("judge", "environ", "key"),
    [
        pytest.param({"spec": "openai:j"}, {"OPENAI_API_KEY": KEY}, KEY, id="default-variable"),
        pytest.param(
            {"spec": "openai:j", "api_key_env": "MINE"}, {"MINE": KEY}, KEY, id="named-variable"
        ),
        pytest.param({"spec": "local"}, {}, None, id="no-key-needed"),
        pytest.param({}, {"OPENAI_API_KEY": KEY}, None, id="no-judge-no-key"),
    ],
)
def test_the_key_is_read_at_the_edge(
    judge: dict[str, str], environ: dict[str, str], key: str | None
) -> None:
    found = with_judge_key(Settings(judge=JudgeSettings(**judge)), environ).judge.api_key
    assert (found.get_secret_value() if found else None) == key


def test_a_named_key_variable_that_is_unset_is_an_error() -> None:
    settings = Settings(judge=JudgeSettings(spec="openai:j", api_key_env="MISSING"))
    with pytest.raises(ConfigError, match="MISSING is not set"):
        with_judge_key(settings, {})


def test_a_base_url_with_a_password_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    url = "http://user:hunter2-password@127.0.0.1:9/v1"
    code = main(
        ["run", "injection", "--target", "mock", "--judge", "openai:j", "--judge-base-url", url]
    )
    err = capsys.readouterr().err
    assert code == 3
    assert "carries a password" in err
    assert "hunter2" not in err
