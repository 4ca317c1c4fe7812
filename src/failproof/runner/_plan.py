"""What a run sends: the suites, which of their cases, how many samples each, and the cache key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from failproof.core import Case, Message, Suite
from failproof.guard._json import JsonObject
from failproof.runner._planned import RunSuites, survey
from failproof.suites import Selection, load_suites, select_cases
from failproof.suites._pick import pick_suites
from failproof.suites._stream import stream_suites

__all__ = [
    "RunRequest",
    "WorkItem",
    "cache_key",
    "plan_work",
    "suite_fingerprint",
    "suite_source",
]


@dataclass(frozen=True)
class RunRequest:
    """Everything that defines a run's work; stored in the run's config so `--resume` rebuilds it.

    ``target_options`` must never hold a secret: targets read keys from the environment.
    ``only`` restricts the run to these (suite, case id) pairs (the demo's selection);
    ``selection`` then narrows it by the user's ``--only``, ``--category``, ``--severity`` and
    ``--sample``.
    ``output`` and ``formats`` are where the command line wrote the reports (``-o``, ``-f``),
    kept so that ``--resume`` writes them to the same place.
    """

    suites: tuple[str, ...]
    target: str
    target_options: Mapping[str, Any] = field(default_factory=dict)
    repeat: int = 1
    only: tuple[tuple[str, str], ...] | None = None
    selection: Selection = field(default_factory=Selection)
    output: str | None = None
    formats: str | None = None

    def to_config(self) -> JsonObject:
        return {
            "suite_sources": list(self.suites),
            "target_spec": self.target,
            "target_options": dict(self.target_options),
            "repeat": self.repeat,
            "only": [list(key) for key in self.only] if self.only is not None else None,
            "selection": None if self.selection.empty else self.selection.to_config(),
            "output": self.output,
            "formats": self.formats,
        }

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RunRequest:
        only = config.get("only")
        return cls(
            suites=tuple(config["suite_sources"]),
            target=str(config["target_spec"]),
            target_options=dict(config.get("target_options") or {}),
            repeat=int(config.get("repeat") or 1),
            only=tuple((str(s), str(c)) for s, c in only) if only is not None else None,
            selection=Selection.from_config(config.get("selection")),
            output=_text_or_none(config.get("output")),
            formats=_text_or_none(config.get("formats")),
        )

    def load(self) -> list[Suite]:
        """The suites, narrowed to the cases in ``only`` when it is set, then to ``selection``."""
        loaded = load_suites(self.suites)
        if self.only is not None:
            keep = set(self.only)
            narrowed = [s.model_copy(update={"cases": _keep(s.cases, keep)}) for s in loaded]
            loaded = [s for s in narrowed if s.cases]
        return select_cases(loaded, self.selection)

    def stream(self) -> RunSuites:
        """The same cases as `load`, read as they are used: a JSONL suite is checked whole but
        only its first cases stay in memory (`stream_suites`); the fingerprint is hashed as the
        cases are read."""
        only = set(self.only) if self.only is not None else None
        return survey(pick_suites(stream_suites(self.suites), self.selection, only))


def _text_or_none(value: Any) -> str | None:
    return str(value) if value is not None else None


def suite_fingerprint(suites: Sequence[Suite]) -> str:
    """A hash of everything the suites ask and expect: it changes when any case does."""
    content = [s.model_dump(mode="json", exclude={"source"}) for s in suites]
    blob = json.dumps(content, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _keep(cases: Sequence[Case], keep: Collection[tuple[str, str]]) -> tuple[Case, ...]:
    return tuple(c for c in cases if c.key in keep)


def suite_source(name_or_path: str) -> str:
    """A suite argument as stored for resume: an absolute path for a file, else the name."""
    path = Path(name_or_path)
    return str(path.resolve()) if path.exists() else name_or_path


@dataclass(frozen=True)
class WorkItem:
    """One call to make: a case and its sample index."""

    case: Case
    sample: int = 0

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.case.suite, self.case.id, self.sample)


def plan_work(
    cases: Iterable[Case], repeat: int, skip: Collection[tuple[str, str, int]] = ()
) -> Iterator[WorkItem]:
    """Every (case, sample) not in ``skip``, lazily, case by case and sample by sample."""
    for case in cases:
        for sample in range(repeat):
            if (case.suite, case.id, sample) not in skip:
                yield WorkItem(case, sample)


def _cached_message(message: Message) -> list[Any]:
    if not message.tool_calls and message.tool_call_id is None:
        return [message.role, message.content]
    calls = [c.model_dump() for c in message.tool_calls]
    return [message.role, message.content, calls, message.tool_call_id]


def cache_key(identity: Mapping[str, Any], case: Case) -> str:
    """The response-cache key: the target's identity (with its parameters) and the messages."""
    payload: dict[str, Any] = {
        "target": identity,
        "messages": [_cached_message(m) for m in case.messages()],
    }
    if case.tools:
        payload["tools"] = [t.model_dump(exclude={"returns", "injection"}) for t in case.tools]
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
