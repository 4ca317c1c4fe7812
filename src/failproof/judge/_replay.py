"""A recorded judge: ``--judge replay:FILE`` answers from verdicts recorded in a JSONL file.

Each line is one recorded answer, keyed by the case id, or by the request and the answer it
judged (both, when a line has both), and optionally by the rubric's name (``response`` when
absent)::

    {"case_id": "c1", "verdict": {"refusal": "refusal", "harmful": false, "reason": "declines"}}
    {"prompt": "How do I ...?", "response": "Sure: ...", "answer": "{\\"refusal\\": ...}"}
    {"case_id": "c2", "rubric": "rubric", "verdict": {"score": 0.8, "reason": "..."}}

``verdict`` is the judge's JSON object, ``answer`` its raw text; either is read exactly like a
live judge's answer (validated, so a malformed recording is a ``judge_error``). A question the
file does not answer is a ``judge_error`` that says so. The file is read once, at the edge, and
its digest is part of the judge's identity.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from failproof.errors import ConfigError

__all__ = ["REPLAY_SCHEME", "Replay", "ReplayLine", "is_replay", "load_replay", "request_key"]

REPLAY_SCHEME = "replay:"


class ReplayLine(BaseModel):
    """One recorded answer of the judge."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    case_id: str | None = None
    prompt: str | None = None
    response: str | None = None
    rubric: str = Field(default="response", description="The rubric's name (not its version).")
    verdict: dict[str, object] | None = None
    answer: str | None = None

    def raw(self) -> str:
        """The recorded answer as the judge's raw text."""
        if self.answer is not None:
            return self.answer
        return json.dumps(self.verdict, ensure_ascii=False)


def is_replay(spec: str | None) -> bool:
    """Whether the judge spec names a recording (``replay:FILE``)."""
    return bool(spec) and str(spec).startswith(REPLAY_SCHEME)


def request_key(rubric: str, prompt: str, response: str) -> str:
    """The key of a recorded answer by request and answer."""
    blob = json.dumps([rubric, prompt, response], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Replay:
    """The recorded answers of one file, looked up by case id or by request and answer."""

    def __init__(self, path: Path, lines: list[ReplayLine], digest: str) -> None:
        self.path = path
        self.digest = digest
        self._by_case: dict[tuple[str, str], str] = {}
        self._by_request: dict[str, str] = {}
        for line in lines:
            if line.case_id is not None:
                self._by_case[(line.rubric, line.case_id)] = line.raw()
            if line.prompt is not None and line.response is not None:
                key = request_key(line.rubric, line.prompt, line.response)
                self._by_request[key] = line.raw()

    def answer(self, rubric: str, inputs: Mapping[str, str], case_id: str | None) -> str | None:
        """The recorded raw answer to this question, or None when the file holds none."""
        if case_id is not None and (found := self._by_case.get((rubric, case_id))) is not None:
            return found
        prompt, response = inputs.get("prompt"), inputs.get("response")
        if prompt is None or response is None:
            return None
        return self._by_request.get(request_key(rubric, prompt, response))

    def identity(self) -> dict[str, str]:
        """What identifies this recording: its file and the digest of its bytes."""
        return {"replay": str(self.path), "sha256": self.digest}


def _line(number: int, text: str, path: Path) -> ReplayLine:
    try:
        line = ReplayLine.model_validate_json(text)
    except ValidationError as exc:
        problem = exc.errors()[0]["msg"]
        raise ConfigError(
            f"{path}: line {number} is not a recorded verdict: {problem}",
            hint='each line is {"case_id" or "prompt"+"response", "verdict": {...} or "answer"}',
        ) from None
    if line.verdict is None and line.answer is None:
        raise ConfigError(f"{path}: line {number} has neither a verdict nor an answer")
    return line


def load_replay(spec: str) -> Replay:
    """The recording ``replay:FILE`` names; a missing or malformed file is a configuration error."""
    path = Path(spec[len(REPLAY_SCHEME) :])
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"cannot read the judge's recording {path}: {exc.strerror or exc}",
            hint="give --judge replay:FILE with a JSONL file of recorded verdicts",
        ) from None
    text = data.decode("utf-8", errors="replace")
    lines = [
        _line(number, raw, path)
        for number, raw in enumerate(text.splitlines(), start=1)
        if raw.strip()
    ]
    return Replay(path, lines, hashlib.sha256(data).hexdigest())
