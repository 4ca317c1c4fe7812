"""Every error failproof raises on purpose.

The hierarchy::

    FailproofError                 base; carries a one-line, user-facing message and a hint
    ├── ConfigError                a setting, flag, environment variable or config file is wrong
    ├── InputError                 a file the user gave us cannot be used
    │   ├── SuiteError             a suite file is malformed (file, line, case id, what to fix)
    │   ├── ResponsesError         a recorded-responses file is malformed
    │   └── PatternError           a user-supplied signal pattern is invalid
    ├── PluginError                a scorer, target, renderer or plugin is unknown or broken
    ├── TargetError                the target could not be set up (bad spec, missing extra, ...)
    ├── StoreError                 the results store cannot be opened, migrated or read
    └── MissingExtraError          an optional dependency is not installed (names the extra)

Every one maps to exit code 3 at the command line. A failing *response* is never an exception:
it becomes a `Response` with `error` set and is classified as ``error``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "ConfigError",
    "ExecutorLost",
    "ExitCode",
    "FailproofError",
    "InputError",
    "MissingExtraError",
    "PatternError",
    "PluginError",
    "ResponsesError",
    "StoreError",
    "SuiteError",
    "TargetError",
]


class ExitCode(IntEnum):
    """Exit codes of every failproof command."""

    OK = 0  # everything passed, or the --fail-under gate was met
    FAILURE = 1  # at least one failure, or the gate was missed
    REVIEW = 2  # no failure, but at least one case needs review
    ERROR = 3  # configuration, input or runtime error


class FailproofError(Exception):
    """Base of every deliberate failproof error: a message and what to do next."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} ({self.hint})"
        return self.message


class ConfigError(FailproofError):
    """A setting, flag, environment variable or config file is invalid."""


class InputError(FailproofError):
    """A file or value the user gave us cannot be used."""


class SuiteError(InputError):
    """A suite file is malformed; the message names the file, line, case id and the fix."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        case_id: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = path or "<suite>"
        if line is not None:
            where += f":{line}"
        if case_id is not None:
            where += f": case {case_id!r}"
        super().__init__(f"{where}: {message}", hint=hint)
        self.path = path
        self.line = line
        self.case_id = case_id
        self.detail = message


class ResponsesError(InputError):
    """A recorded-responses file is malformed."""


class PatternError(InputError):
    """A signal pattern (built-in or user-supplied) does not compile."""


class PluginError(FailproofError):
    """A registered component is unknown, or a plugin failed to load."""


class ExecutorLost(FailproofError):
    """The cluster the run's work was sent to went away mid-run (what finished is stored)."""


class TargetError(FailproofError):
    """A target could not be created from its spec or could not start."""


class StoreError(FailproofError):
    """The SQLite results store cannot be opened, migrated or read."""


class MissingExtraError(FailproofError):
    """An optional dependency is missing; the message says which extra to install."""

    def __init__(self, package: str, extra: str, purpose: str, *, hint: str | None = None) -> None:
        super().__init__(
            f"{purpose} needs the package {package!r}, which is not installed",
            hint=hint or f"pip install 'failproof[{extra}]'",
        )
        self.package = package
        self.extra = extra
