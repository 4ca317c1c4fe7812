"""The pytest plugin (entry point ``pytest11``): suite files collected as tests, one per case.

Inert unless a target is given (``--failproof-target SPEC`` or the ``failproof_target`` ini
option): it then collects files matching ``--failproof-glob`` (default ``failproof_*.yaml``), and
any suite file named on the command line. The first case of a file to run runs every selected
case of that file as one failproof run (stored, cached, judged as the project file says); each
item's outcome is its case's verdict, with the reasons as the failure message. Nothing heavy is
imported until then, so that installing failproof costs other test suites nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from failproof.core import CaseResult

__all__ = ["SuiteFile", "SuiteItem"]

DEFAULT_GLOB = "failproof_*.yaml"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("failproof", "failproof: suite files as tests")
    group.addoption(
        "--failproof-target",
        metavar="SPEC",
        default=None,
        help="Run suite files as tests against this target (openai:MODEL, mock, http:URL, ...).",
    )
    group.addoption(
        "--failproof-glob",
        metavar="GLOB",
        default=None,
        help=f"Which files are suites (default {DEFAULT_GLOB}; ini failproof_glob).",
    )
    parser.addini("failproof_target", "Target the suite files are run against.", default="")
    parser.addini("failproof_glob", "Which files are suite files.", default=DEFAULT_GLOB)


def _target(config: pytest.Config) -> str | None:
    given = config.getoption("--failproof-target") or config.getini("failproof_target")
    return str(given) if given else None


def _named(config: pytest.Config, path: Path) -> bool:
    """Whether ``path`` was named on the command line itself."""
    for arg in config.args:
        candidate = Path(str(arg).split("::")[0])
        if not candidate.is_absolute():
            candidate = Path(config.invocation_params.dir) / candidate
        if candidate == path:
            return True
    return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if _target(config) is None or file_path.suffix.lower() not in (".yaml", ".yml", ".json"):
        return None
    glob = str(config.getoption("--failproof-glob") or config.getini("failproof_glob"))
    if fnmatch(file_path.name, glob) or file_path.match(glob) or _named(config, file_path):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


class CaseVerdictFailed(Exception):
    """A case's verdict was not pass; the message is its verdict and reasons."""


class SuiteFile(pytest.File):
    """A suite file; its items are its cases, run together on first need."""

    results: dict[str, CaseResult] | None = None
    run_id: str | None = None
    problem: Exception | None = None

    def collect(self) -> Iterator[SuiteItem]:
        from failproof.suites import load_suite

        suite = load_suite(self.path)
        for case in suite.cases:
            yield SuiteItem.from_parent(self, name=case.id, suite=suite.name)

    def run_selected(self) -> dict[str, CaseResult]:
        """Run every selected case of this file once; the results by case id."""
        if self.problem is not None:
            raise self.problem
        if self.results is not None:
            return self.results
        try:
            self.results = self._run()
        except Exception as exc:
            self.problem = exc
            raise
        return self.results

    def _run(self) -> dict[str, CaseResult]:
        from failproof.runner import RunRequest, start_run
        from failproof.store import Store
        from failproof.testing._check import default_settings

        items = [i for i in self.session.items if isinstance(i, SuiteItem) and i.parent is self]
        target = _target(self.config) or ""
        settings = default_settings(Path(self.config.rootpath))
        request = RunRequest(
            suites=(str(self.path),),
            target=target,
            repeat=settings.run.repeat,
            only=tuple((item.suite, item.name) for item in items),
        )
        with Store(settings.db_path) as store:
            outcome = start_run(request, settings=settings, store=store, progress="quiet")
            self.run_id = outcome.report.run.id
            return {r.case_id: r for r in outcome.report.cases() if r.sample == 0}


class SuiteItem(pytest.Item):
    """One case: passes when failproof's verdict on the target's answer is pass."""

    def __init__(self, *, suite: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite

    def runtest(self) -> None:
        from failproof.report._verdict import case_verdict
        from failproof.testing._check import explain

        assert isinstance(self.parent, SuiteFile)
        result = self.parent.run_selected().get(self.name)
        if result is None:
            raise CaseVerdictFailed(f"{self.suite}/{self.name}: not run")
        if result.unsupported is not None:  # not sent: skipped with the reason, never a pass
            pytest.skip(f"unsupported: {result.unsupported.reason}")
        if case_verdict(result) != "pass":
            raise CaseVerdictFailed(f"{explain(result)}\n  run: {self.parent.run_id}")

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        from failproof.errors import FailproofError

        if isinstance(excinfo.value, CaseVerdictFailed | FailproofError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"failproof case {self.suite}/{self.name}"
