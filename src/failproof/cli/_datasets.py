"""``failproof datasets``: list the public benchmarks, pull one as a suite."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from failproof.cli._app import ConfigOpt, app, settings_from
from failproof.cli._output import stderr, stdout
from failproof.errors import InputError
from failproof.guard import for_console

datasets_app = typer.Typer(help="Public benchmarks: list them, pull one as a suite.")
app.add_typer(datasets_app, name="datasets")

_HEX = re.compile(r"^[0-9a-f]{64}$")
_HOW = {
    "pinned": "matches the checksum pinned in failproof",
    "given": "matches --sha256",
    "recorded": "matches the checksum recorded at the first pull",
    "first_pull": "first pull: checksum recorded, later pulls are checked against it",
}


@datasets_app.command("list")
def list_datasets() -> None:
    """The benchmarks failproof can fetch, with their licences (nothing of theirs ships)."""
    from failproof.datasets import dataset_catalogue

    table = Table(title="Public benchmarks (fetched from their own locations on pull)")
    for column in ("name", "title", "licence", "files", "about"):
        table.add_column(column, overflow="fold")
    for spec in dataset_catalogue().values():
        files = ", ".join(f.name for f in spec.files)
        table.add_row(spec.name, spec.title, spec.licence, files, spec.about)
    stdout.print(table)


def _pins(values: list[str]) -> dict[str, str]:
    pins = {}
    for value in values:
        name, sep, digest = value.partition("=")
        if not sep or not _HEX.match(digest.strip().lower()):
            raise InputError(f"--sha256 {value!r}: give FILE=HEX (64 hex digits)")
        pins[name.strip()] = digest.strip().lower()
    return pins


@datasets_app.command("pull")
def pull(
    name: Annotated[str, typer.Argument(help="The dataset (failproof datasets list).")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Suite file to write (default: in the cache)."),
    ] = None,
    mirror: Annotated[
        str | None,
        typer.Option("--mirror", help="Fetch from MIRROR/NAME/FILE instead of the canonical URL."),
    ] = None,
    sha256: Annotated[
        list[str] | None,
        typer.Option("--sha256", help="FILE=HEX: the checksum the file must have (repeatable)."),
    ] = None,
    refresh: Annotated[
        bool, typer.Option("--refresh", help="Fetch again even when cached (still verified).")
    ] = False,
    config: ConfigOpt = None,
) -> None:
    """Fetch a benchmark (or reuse the cached copy), verify each file's SHA-256, and write it
    as a suite with the expectations its behaviour types need. A wrong checksum is refused."""
    from failproof.datasets import pull_dataset
    from failproof.datasets._catalogue import dataset_spec
    from failproof.generate import write_suite

    spec = dataset_spec(name)
    cache = settings_from(config).home / "datasets"
    done = pull_dataset(spec, cache, mirror=mirror, sha256=_pins(sha256 or []), refresh=refresh)
    for got in done.files:
        how = "fetched" if got.fetched else "cached"
        line = f"{got.name}: {how}, sha256 {got.sha256} ({_HOW[got.checked]})"
        stderr.print(for_console(line), highlight=False, soft_wrap=True)
    path = write_suite(done.suite, output or cache / name / f"{name}.yaml")
    stderr.print(
        for_console(
            f"wrote {path}: suite {done.suite.name!r}, {len(done.suite)} cases "
            f"({spec.licence}; {spec.homepage})"
        ),
        highlight=False,
        soft_wrap=True,
    )
    stderr.print(f"run it: failproof run {path} --target ...", highlight=False, soft_wrap=True)
