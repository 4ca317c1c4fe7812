"""Assert a target, or a Python function, against a suite or one case, inside ordinary tests.

Each check is a run like ``failproof run``: stored in the results store of the settings (the
project file's, by default), with the response cache, so that running the tests again sends
nothing already answered (targets that are never cached, like Python functions, are called again).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from failproof.config import Settings, load_settings
from failproof.config._settings import with_judge_key
from failproof.core import CaseResult, Suite
from failproof.errors import ConfigError
from failproof.guard import redact
from failproof.guard._text import strip_controls
from failproof.report import Report
from failproof.report._verdict import case_verdict
from failproof.runner import RunRequest, start_run
from failproof.runner._plan import suite_source
from failproof.signals._folder import use_cache_folder
from failproof.store import Store
from failproof.suites import resolve_suite
from failproof.targets import PythonTarget, Target, targets

__all__ = ["CaseFailure", "SuiteCheck", "assert_passes", "check", "default_settings", "explain"]

TargetLike = str | Callable[..., Any]

_FUNCTIONS: dict[str, Callable[..., Any]] = {}
_NUMBERS = itertools.count(1)


class CaseFailure(AssertionError):
    """Cases did not pass: the message lists each with its verdict and reasons."""


@targets.register("function", description="A Python callable handed to failproof.testing.")
def _function_factory(argument: str, options: Mapping[str, Any]) -> Target:  # noqa: ARG001
    """A callable given to `check` in this process, by the key `check` gave it."""
    key = argument.rpartition("#")[2]
    if key not in _FUNCTIONS:
        raise ConfigError(
            f"function target {argument!r} is not known in this process",
            hint="pass the callable to failproof.testing.check",
        )
    fn = _FUNCTIONS[key]
    return PythonTarget(fn, f"{fn.__module__}:{fn.__qualname__}")


def _spec(target: TargetLike) -> str:
    if isinstance(target, str):
        return target
    key = str(next(_NUMBERS))
    _FUNCTIONS[key] = target
    return f"function:{target.__module__}:{target.__qualname__}#{key}"


@dataclass(frozen=True, slots=True)
class SuiteCheck:
    """A finished check: the run's id, its report, and the cases that did not pass."""

    run_id: str
    report: Report
    results: list[CaseResult]

    @property
    def failures(self) -> list[CaseResult]:
        """Cases whose verdict is fail or review, or that were not sent (unsupported)."""
        return [r for r in self.results if case_verdict(r) != "pass"]

    @property
    def passed(self) -> bool:
        return not self.failures


def _cut(text: str, limit: int = 300) -> str:
    flat = strip_controls(" ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def explain(result: CaseResult) -> str:
    """A case's verdict with its class, reasons and an excerpt of the output, for a person."""
    verdict = case_verdict(result)
    lines = [f"{result.suite}/{result.case_id}: {verdict.upper()} ({result.primary})"]
    if result.unsupported is not None:
        lines.append(f"  - not sent: {_cut(result.unsupported.reason)}")
    reasons = result.classification.reasons if result.classification else []
    for reason in reasons:
        evidence = f" [{_cut(reason.evidence, 120)}]" if reason.evidence else ""
        lines.append(f"  - {reason.rule}: {_cut(reason.detail)}{evidence}")
    if result.safe_v0 is not None:
        lines.append(f"  - SAFE v0: {result.safe_v0.label}")
    if result.error:
        lines.append(f"  error: {_cut(result.error)}")
    else:
        lines.append(f"  output: {_cut(result.output)}")
    return redact("\n".join(lines))


def _only(suite: Suite, cases: Sequence[str]) -> tuple[tuple[str, str], ...]:
    known = {c.id for c in suite.cases}
    missing = [c for c in cases if c not in known]
    if missing:
        raise ConfigError(
            f"suite {suite.name!r} has no case {', '.join(map(repr, missing))}",
            hint=f"its cases: {', '.join(sorted(known)[:20])}",
        )
    return tuple((suite.name, c) for c in cases)


def default_settings(root: Path | None = None) -> Settings:
    """The settings a check uses: flags none, then environment, project file and defaults."""
    settings = with_judge_key(load_settings(cwd=root))
    use_cache_folder(settings.cache_folder)
    return settings


def check(
    target: TargetLike,
    suite: str | Path,
    *,
    case: str | Sequence[str] | None = None,
    settings: Settings | None = None,
    options: Mapping[str, Any] | None = None,
) -> SuiteCheck:
    """Run ``suite`` (a built-in name or a file), or only ``case``, against ``target`` (a spec
    like ``openai:gpt-4o-mini``, or a Python callable of the case or of its ``messages``)."""
    settings = settings or default_settings()
    loaded = resolve_suite(suite)
    cases = [case] if isinstance(case, str) else list(case or [])
    request = RunRequest(
        suites=(suite_source(str(suite)),),
        target=_spec(target),
        target_options=dict(options or {}),
        repeat=settings.run.repeat,
        only=_only(loaded, cases) if cases else None,
    )
    with Store(settings.db_path) as store:
        outcome = start_run(request, settings=settings, store=store, progress="quiet")
        results = list(outcome.report.cases())
    return SuiteCheck(outcome.report.run.id, outcome.report, results)


def assert_passes(
    target: TargetLike,
    suite: str | Path,
    *,
    case: str | Sequence[str] | None = None,
    settings: Settings | None = None,
    options: Mapping[str, Any] | None = None,
) -> SuiteCheck:
    """`check`, then raise `CaseFailure` listing every case that did not pass, with its reasons."""
    done = check(target, suite, case=case, settings=settings, options=options)
    if done.failures:
        count = len(done.failures)
        head = f"{count} of {len(done.results)} case(s) did not pass (run {done.run_id}):"
        raise CaseFailure("\n".join([head, *(explain(r) for r in done.failures)]))
    return done
