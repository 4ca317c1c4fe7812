"""The benchmarks' latency server counts what it is sent and, when asked, never repeats an answer
(the peer benchmark reads each tool's real request count from it)."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from runner_server import request_counts, spawn


def _ask(base_url: str, text: str) -> str:
    body = json.dumps({"model": "bench", "messages": [{"role": "user", "content": text}]})
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=body.encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        answer: str = json.load(reply)["choices"][0]["message"]["content"]
    return answer


def test_counts_every_chat_completion_and_every_other_request() -> None:
    with spawn(0, vary=True) as base_url:
        answers = [_ask(base_url, "same question") for _ in range(3)]
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base_url}/models", timeout=10)
        assert request_counts(base_url) == {"chat_completions": 3, "other": 1}
    assert len(set(answers)) == 3, "a varied answer must differ every time"


def test_without_vary_the_answer_is_the_same_every_time() -> None:
    with spawn(0) as base_url:
        assert _ask(base_url, "a") == _ask(base_url, "b")
        assert request_counts(base_url)["chat_completions"] == 2
