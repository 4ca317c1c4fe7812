"""Writing reports from a command: formats, output location, and saying where."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import typer

from failproof.errors import ConfigError, InputError
from failproof.guard._text import strip_controls

if TYPE_CHECKING:
    from rich.console import Console

    from failproof.config import Settings
    from failproof.report import Report

__all__ = [
    "ReportPlan",
    "check_folder",
    "chosen_formats",
    "emit_reports",
    "plan_reports",
    "refuse_overwrite",
    "report_and_exit",
    "run_folder",
    "say",
    "stderr",
    "stdout",
]


class _Console:
    """A rich console made when it first prints: rich takes about 15 ms of CPU to import, and a
    quiet command (a run that writes only files) never prints through it."""

    def __init__(self, *, stderr: bool = False) -> None:
        self.stderr = stderr
        self.console: Console | None = None

    def print(self, *objects: Any, **options: Any) -> None:
        if self.console is None:
            from rich.console import Console

            # text from suites and servers is printed through it: ":smile:" stays as written
            self.console = Console(stderr=self.stderr, emoji=False)
        self.console.print(*objects, **options)


stdout = _Console()
stderr = _Console(stderr=True)


def say(text: str) -> None:
    """A message on stderr that may quote text from outside (a server's error, a file name):
    written as it is, one line unwrapped, with its control characters shown, not sent (nothing
    in it is read as markup or an emoji code)."""
    print(strip_controls(text), file=sys.stderr, flush=True)


#: How to go on when an output file exists (``init`` says its own).
_REPLACE = "name another file with --output, or add --force to replace it"


def refuse_overwrite(
    path: Path, *, force: bool, hint: str = _REPLACE, inputs: Iterable[str | Path] = ()
) -> None:
    """Refuse to write over ``path``: always when it is a file the command reads (``inputs``),
    otherwise when it exists and ``force`` is not given (``hint`` says how to go on)."""
    if not path.exists():
        return
    for source in inputs:
        if Path(source).exists() and path.samefile(source):
            raise InputError(
                f"{path} is also read by this command; not writing over it, even with --force",
                hint="name another file with --output",
            )
    if not force:
        raise ConfigError(f"{path} exists", hint=hint)


def run_folder(settings: Settings, run_id: str) -> Path:
    """The run's report folder; the id is checked so that no id from a file can name a path."""
    from failproof.core._result import is_run_id

    if not is_run_id(run_id):
        raise InputError(f"{run_id[:80]!r} is not a run id", hint="see 'failproof runs list'")
    return Path(settings.report.output_dir) / run_id


def chosen_formats(formats: str | None, settings: Settings) -> list[str]:
    """The report formats asked for: ``--format``, else the settings' (none by default)."""
    from failproof.report._render import parse_formats

    if formats:
        return parse_formats(formats)
    return parse_formats(settings.report.formats) if settings.report.formats else []


class ReportPlan(NamedTuple):
    """The reports a command writes and where, checked before it does any work."""

    formats: list[str]
    output: Path | None  # None: the run's folder
    folder: bool  # ``output`` is a folder (no format or several), not the one report's file


def plan_reports(formats: str | None, output: Path | None, settings: Settings) -> ReportPlan:
    """The formats asked for and where they go: an unknown format, or an ``--output`` that
    cannot take them, is an error here, before any target is called."""
    chosen = chosen_formats(formats, settings)
    if output is None:
        return ReportPlan(chosen, None, folder=True)
    if len(chosen) == 1:
        return _one_format(chosen[0], output)
    if output.exists() and not output.is_dir():
        asked = f"{len(chosen)} formats ({', '.join(chosen)})" if chosen else "no --format"
        raise ConfigError(
            f"--output {output} is a file, and with {asked} it names a folder",
            hint="give a folder (it is made if missing), or ask for one --format",
        )
    check_folder(output)
    return ReportPlan(chosen, output, folder=True)


def _one_format(name: str, output: Path) -> ReportPlan:
    """One format: ``output`` is its file; an existing folder gets the file under its usual
    name (console output has none: it needs a file path)."""
    from failproof.report import renderers

    if output.is_dir():
        filename = renderers.get(name).filename
        if not filename:
            raise ConfigError(
                f"--output {output} is a folder, and -f {name} writes one text file",
                hint=f"give a file path, e.g. -o {output / 'report.txt'}",
            )
        output = output / filename
    check_folder(output.parent, output)
    return ReportPlan([name], output, folder=False)


def check_folder(folder: Path, asked: Path | None = None) -> None:
    """``folder`` can hold ``asked`` (by default itself): it is a folder, or can be made in the
    nearest existing one, which failproof may write in."""
    asked = asked or folder
    for place in (folder, *folder.parents):
        if not place.exists():
            continue
        if not place.is_dir():
            raise ConfigError(
                f"cannot write {asked}: {place} is a file, not a folder",
                hint="give --output a path whose folders are folders",
            )
        if not os.access(place, os.W_OK | os.X_OK):
            raise ConfigError(
                f"cannot write {asked}: the folder {place} is not writable",
                hint="give --output a path you may write in",
            )
        return


def emit_reports(report: Report, plan: ReportPlan, settings: Settings) -> list[Path]:
    """Print the console report if asked (unless it is the one file asked for), write the file
    reports, and say where they went."""
    from failproof.report import renderers, write_reports

    if "console" in plan.formats and plan.folder:
        text = renderers.get("console")().render(report)
        sys.stdout.write(text)
        sys.stdout.flush()
    if plan.output is None:  # the default location is always a folder
        folder = run_folder(settings, report.run.id)
        written = write_reports(report, plan.formats, folder, folder=True)
    else:
        written = write_reports(report, plan.formats, plan.output, folder=plan.folder)
    for path in written:
        say(f"wrote {path}")
    return written


def report_and_exit(report: Report, plan: ReportPlan, settings: Settings) -> NoReturn:
    """Write the reports, then exit by the run's verdict (or the ``--fail-under`` gate)."""
    from failproof.report import exit_code

    emit_reports(report, plan, settings)
    raise typer.Exit(int(exit_code(report, settings.run.fail_under)))
