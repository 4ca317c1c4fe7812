"""Find suites by path or by built-in name."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Protocol, TypeVar

from failproof.core import Suite
from failproof.errors import SuiteError
from failproof.suites._loader import SUITE_SUFFIXES, iter_suite_files, load_suite

__all__ = ["builtin_suite_names", "builtin_suites_dir", "load_suites", "resolve_suite"]


def builtin_suites_dir() -> Path:
    """The folder of the suites shipped with failproof."""
    return Path(str(files("failproof.suites").joinpath("data")))


def builtin_suite_names() -> list[str]:
    """Names of the built-in suites, sorted."""
    return [p.stem for p in iter_suite_files(builtin_suites_dir())]


def resolve_suite(name_or_path: str | Path) -> Suite:
    """Load a suite from a file path, or a built-in suite by name."""
    path = Path(name_or_path)
    if path.suffix.lower() in SUITE_SUFFIXES or path.exists():
        if path.is_dir():
            raise SuiteError("is a folder; give a suite file", path=str(path))
        return load_suite(path)
    name = str(name_or_path)
    for candidate in iter_suite_files(builtin_suites_dir()):
        if candidate.stem == name:
            return load_suite(candidate)
    known = ", ".join(builtin_suite_names()) or "none"
    raise SuiteError(
        f"no suite file or built-in suite named {name!r}",
        hint=f"give a path to a .yaml/.json/.jsonl file, or one of: {known}",
    )


class _Named(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str | None: ...


NamedT = TypeVar("NamedT", bound=_Named)


def unique_names(suites: Iterable[NamedT]) -> list[NamedT]:
    """The suites in order; a second suite with a name already used is an error naming both."""
    kept: list[NamedT] = []
    seen: dict[str, str] = {}
    for suite in suites:
        if suite.name in seen:
            raise SuiteError(
                f"suite name {suite.name!r} is also used by {seen[suite.name]}",
                path=suite.source,
                hint="suite names must be unique within a run",
            )
        seen[suite.name] = suite.source or suite.name
        kept.append(suite)
    return kept


def load_suites(names_or_paths: Sequence[str | Path]) -> list[Suite]:
    """Resolve several suites; two suites with the same name are an error."""
    return unique_names(resolve_suite(item) for item in names_or_paths)
