"""The judge's target: any registered target, built from the judge settings alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.judge.helpers import verdict

from failproof.config import JudgeSettings
from failproof.errors import ConfigError
from failproof.judge import ResponseVerdict, load_rubric
from failproof.judge._target import judge_target
from failproof.judge._thread import JudgeThread
from failproof.targets import MockTarget, OpenAITarget


def test_any_registered_target_can_judge(tmp_path: Path) -> None:
    settings = JudgeSettings(spec=f"mock:{verdict('refusal', False, 'declines')}")
    thread = JudgeThread(settings, tmp_path / "failproof.db")
    try:
        answer = thread.ask(
            load_rubric("response"), {"prompt": "p", "response": "r"}, ResponseVerdict
        )
    finally:
        thread.close()
    assert answer.status == "ok"
    assert answer.verdict == {"refusal": "refusal", "harmful": False, "reason": "declines"}
    assert thread.identity["spec"] == settings.spec


def test_an_openai_judge_gets_its_key_from_the_settings_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment-000")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    settings = JudgeSettings(spec="openai:j", base_url="http://127.0.0.1:2/v1")
    target = judge_target(settings)
    assert isinstance(target, OpenAITarget)
    assert target.connection.api_key is None
    assert target.connection.base_url == "http://127.0.0.1:2/v1"
    assert target.params == {"temperature": 0, "max_tokens": settings.max_tokens}


def test_a_mock_judge_is_a_mock_target() -> None:
    assert isinstance(judge_target(JudgeSettings(spec="mock:x")), MockTarget)


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        pytest.param(None, "no judge configured", id="no-spec"),
        pytest.param("openai:", "needs a model", id="openai-without-a-model"),
        pytest.param("openai:gpt-4o-mini", "no API key for the judge", id="openai-without-a-key"),
    ],
)
def test_a_judge_that_cannot_be_built_says_why(spec: str | None, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        judge_target(JudgeSettings(spec=spec))
