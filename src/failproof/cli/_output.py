"""Writing reports from a command: formats, output location, and saying where."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from failproof.errors import InputError
from failproof.guard._text import strip_controls

if TYPE_CHECKING:
    from rich.console import Console

    from failproof.config import Settings
    from failproof.report import Report

__all__ = [
    "chosen_formats",
    "emit_reports",
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


def emit_reports(
    report: Report, formats: str | None, output: Path | None, settings: Settings
) -> list[Path]:
    """Print the console report if asked, write the file reports, and say where they went."""
    from failproof.report import renderers, write_reports

    chosen = chosen_formats(formats, settings)
    if "console" in chosen:
        text = renderers.get("console")().render(report)
        sys.stdout.write(text)
        sys.stdout.flush()
    if output is None:  # the default location is always a folder
        folder = run_folder(settings, report.run.id)
        written = write_reports(report, chosen, folder, folder=True)
    else:
        written = write_reports(report, chosen, output)
    for path in written:
        say(f"wrote {path}")
    return written


def report_and_exit(
    report: Report, formats: str | None, output: Path | None, settings: Settings
) -> NoReturn:
    """Write the reports, then exit by the run's verdict (or the ``--fail-under`` gate)."""
    from failproof.report import exit_code

    emit_reports(report, formats, output, settings)
    raise typer.Exit(int(exit_code(report, settings.run.fail_under)))
