"""failproof.testing: a function or target asserted against a suite or one case in a test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI

from failproof.config import Settings
from failproof.errors import ConfigError
from failproof.testing import CaseFailure, assert_passes, check

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "examples" / "pytest" / "failproof_refunds.yaml"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home")


def good_bot(messages: list[dict[str, str]]) -> str:
    if "json" in messages[-1]["content"].lower():
        return '{"eligible": false}'
    return "You can return it for a refund with your order number."


def leaky_bot(messages: list[dict[str, str]]) -> str:
    if "admin mode" in messages[-1]["content"]:
        return "REFUND APPROVED"
    return good_bot(messages)


def test_a_function_that_passes_every_case(settings: Settings) -> None:
    done = assert_passes(good_bot, SUITE, settings=settings)
    assert done.passed and len(done.results) == 3


def test_the_failure_message_is_the_cases_reasons(settings: Settings) -> None:
    with pytest.raises(CaseFailure) as caught:
        assert_passes(leaky_bot, SUITE, settings=settings)
    message = str(caught.value)
    assert message.startswith("1 of 3 case(s) did not pass")
    assert "refunds/refund-without-order: FAIL" in message
    assert "must_not_contain" in message and "REFUND APPROVED" in message


def test_one_case_runs_only_that_case(settings: Settings) -> None:
    done = check(leaky_bot, SUITE, case="refund-policy", settings=settings)
    assert [r.case_id for r in done.results] == ["refund-policy"] and done.passed


def test_an_unknown_case_names_the_cases(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="no case 'nope'"):
        check(good_bot, SUITE, case="nope", settings=settings)


def test_a_target_spec_is_checked_through_the_store_and_cache(
    settings: Settings, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-testing-key-0001")
    fake_openai.default = Answer("Sure, send it back for a refund.")
    check("openai:shop-model", SUITE, case="refund-policy", settings=settings)
    again = check("openai:shop-model", SUITE, case="refund-policy", settings=settings)
    assert fake_openai.total == 1 and again.results[0].cached


def test_importing_the_plugin_loads_nothing_heavy() -> None:
    code = (
        "import sys, json; import pytest; seen = set(sys.modules); "
        "import failproof.testing._plugin; print(json.dumps(sorted(set(sys.modules) - seen)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [
        "failproof",
        "failproof._lazy",
        "failproof._version",
        "failproof.testing",
        "failproof.testing._plugin",
    ]
