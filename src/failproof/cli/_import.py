"""``failproof import``: test cases from promptfoo, garak and CSV files as suite files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import ForceOpt, app
from failproof.cli._output import refuse_overwrite, stderr
from failproof.core._severity import Severity
from failproof.errors import InputError

if TYPE_CHECKING:
    from failproof.importers import ImportResult

import_app = typer.Typer(
    help="Turn other tools' test files into failproof suites (promptfoo, garak, CSV). Prints "
    "what mapped and what did not; nothing is dropped silently."
)
app.add_typer(import_app, name="import")

SourceArg = Annotated[Path, typer.Argument(help="The file to import.")]
OutOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Suite file to write (default: <name>.yaml here)."),
]
NameOpt = Annotated[str | None, typer.Option("--name", help="Suite name (default: from the file).")]
EncodingOpt = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        help="The files' encoding when they have no byte-order mark and are not UTF-8 "
        "(e.g. cp1252, latin-1).",
    ),
]


def _write(result: ImportResult, output: Path | None, force: bool, source: Path) -> None:
    from failproof.guard import atomic_write_text

    path = output or Path(f"{result.data['suite']}.yaml")
    if path.is_symlink():
        raise InputError(
            f"{path} is a symbolic link; not writing through it",
            hint="name the real file, or another path, with --output",
        )
    refuse_overwrite(path, force=force, inputs=[source])
    suite = result.validate(str(path))
    atomic_write_text(path, result.yaml_text())
    for line in result.summary.lines():
        stderr.print(line, highlight=False, markup=False, soft_wrap=True)
    stderr.print(
        f"wrote {path}: suite {suite.name!r}, {len(suite)} cases (validated)",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def _readable(path: Path) -> Path:
    if not path.is_file():
        raise InputError(f"no file {str(path)!r}", hint="give the path of the file to import")
    return path


@import_app.command("promptfoo")
def promptfoo(
    source: SourceArg,
    output: OutOpt = None,
    name: NameOpt = None,
    root: Annotated[
        Path | None,
        typer.Option(
            "--root",
            help="The folder the config's file:// prompts and tests may be read from (default: "
            "the config's folder; nothing outside it is read).",
        ),
    ] = None,
    encoding: EncodingOpt = None,
    force: ForceOpt = False,
) -> None:
    """A promptfooconfig.yaml: one case per prompt and test (prompts and tests in other files,
    file:// and globs, are read relative to it); deterministic assertions become expectations,
    the others are listed as not mapped."""
    from failproof.importers import import_promptfoo

    result = import_promptfoo(_readable(source), name, root=root, encoding=encoding)
    _write(result, output, force, source)


@import_app.command("garak")
def garak(
    source: SourceArg,
    output: OutOpt = None,
    name: NameOpt = None,
    encoding: EncodingOpt = None,
    force: ForceOpt = False,
) -> None:
    """A garak report.jsonl: the prompts of its attempts, which detectors fired (metadata), and
    the detectors with an equivalent as expectations."""
    from failproof.importers import import_garak

    _write(import_garak(_readable(source), name, encoding=encoding), output, force, source)


@import_app.command("csv")
def csv_(
    source: SourceArg,
    prompt_column: Annotated[
        str, typer.Option("--prompt-column", help="The column of the prompts (e.g. goal).")
    ],
    category_column: Annotated[
        str | None, typer.Option("--category-column", help="The column of the categories.")
    ] = None,
    id_column: Annotated[
        str | None, typer.Option("--id-column", help="The column of the case ids (else row-N).")
    ] = None,
    context_column: Annotated[
        str | None,
        typer.Option("--context-column", help="A column put before the prompt (HarmBench)."),
    ] = None,
    expect: Annotated[
        list[str] | None,
        typer.Option("--expect", help="Expectation of every case, key=value (refusal=required)."),
    ] = None,
    severity: Annotated[
        Severity, typer.Option("--severity", help="Severity of every case.")
    ] = Severity.medium,
    output: OutOpt = None,
    name: NameOpt = None,
    encoding: EncodingOpt = None,
    force: ForceOpt = False,
) -> None:
    """A CSV of prompts (HarmBench, AdvBench, JailbreakBench style): one case per row; the other
    columns are kept as metadata."""
    from failproof.importers import CsvColumns, import_csv
    from failproof.importers._csv import parse_expect

    columns = CsvColumns(
        prompt=prompt_column,
        category=category_column,
        id=id_column,
        context=context_column,
        severity=severity,
        expect=parse_expect(expect or []),
    )
    _write(import_csv(_readable(source), columns, name, encoding=encoding), output, force, source)
