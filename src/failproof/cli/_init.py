"""``failproof init``: write the project file that ``failproof run`` runs without arguments."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from failproof.cli._app import app
from failproof.cli._output import refuse_overwrite, say
from failproof.errors import ConfigError

__all__ = ["ProjectAnswers", "gather_answers", "project_toml"]

DEFAULT_TARGET = "openai:gpt-4o-mini"
DEFAULT_SUITES = ("injection", "jailbreak", "over_refusal")

Ask = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class ProjectAnswers:
    """What the project file declares."""

    targets: list[str]
    suites: list[str]
    judge: str | None
    gate: float | None


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.replace(",", " ").split() if part.strip()]


def _gate(text: str) -> float | None:
    if not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"the gate {text!r} is not a score from 0 to 1", hint="e.g. 0.9")
    return value


def gather_answers(
    targets: list[str], suites: list[str], judge: str | None, gate: float | None, ask: Ask | None
) -> ProjectAnswers:
    """The flags given, and for the rest ``ask`` (a question and its default), or the defaults."""
    if ask is not None:
        if not targets:
            targets = _split(ask("Target(s) to test (space-separated specs)", DEFAULT_TARGET))
        if not suites:
            suites = _split(ask("Suites (names or files)", " ".join(DEFAULT_SUITES)))
        if judge is None:
            judge = ask("Judge model (empty: rules only)", "").strip() or None
        if gate is None:
            gate = _gate(ask("Gate: lowest passing run score, 0-1 (empty: any failure fails)", ""))
    return ProjectAnswers(
        targets=targets or [DEFAULT_TARGET],
        suites=suites or list(DEFAULT_SUITES),
        judge=judge,
        gate=gate,
    )


def _check_suites(suites: list[str]) -> None:
    from failproof.suites import builtin_suite_names

    known = set(builtin_suite_names())
    unknown = [s for s in suites if s not in known and not Path(s).is_file()]
    if unknown:
        raise ConfigError(
            f"no such suite: {', '.join(unknown)}",
            hint="see 'failproof suites list', or give a suite file's path",
        )


def _check_targets(specs: list[str]) -> None:
    """Every target (and the judge) names a kind of target failproof has: the registry's error
    (with the known kinds) otherwise, before anything is written."""
    from failproof.targets import targets
    from failproof.targets._base import parse_target_spec

    for spec in specs:
        targets.get(parse_target_spec(spec)[0])


def project_toml(answers: ProjectAnswers, table: str = "") -> str:
    """The TOML text; ``table`` prefixes every table name (``tool.failproof.`` in pyproject)."""
    quoted = ", ".join(json.dumps(s) for s in answers.suites)
    lines = [
        f"[{table}project]",
        "# 'failproof run' with no arguments runs these suites against each target.",
        f"suites = [{quoted}]",
        f"targets = [{', '.join(json.dumps(t) for t in answers.targets)}]",
    ]
    if answers.judge:
        lines += ["", f"[{table}judge]", f"spec = {json.dumps(answers.judge)}"]
    if answers.gate is not None:
        lines += ["", f"[{table}run]", "# exit 0 when the overall run score is at least this"]
        lines += [f"fail_under = {answers.gate}"]
    return "\n".join(lines) + "\n"


def _write(answers: ProjectAnswers, pyproject: bool, force: bool) -> Path:
    if pyproject:
        path = Path("pyproject.toml")
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if "[tool.failproof" in text:
            raise ConfigError(
                f"{path} already has a [tool.failproof] table",
                hint="edit it, or use failproof.toml",
            )
        path.write_text(text + ("\n" if text else "") + project_toml(answers, "tool.failproof."))
        return path
    path = Path("failproof.toml")
    refuse_overwrite(path, force=force, hint="edit it, or run 'failproof init --force'")
    path.write_text(project_toml(answers), encoding="utf-8")
    return path


@app.command("init")
def init(
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="Target spec; repeat for targets side by side."),
    ] = None,
    suite: Annotated[
        list[str] | None, typer.Option("--suite", "-s", help="Suite name or file; repeatable.")
    ] = None,
    judge: Annotated[
        str | None, typer.Option("--judge", help="Judge model spec (e.g. openai:gpt-4o-mini).")
    ] = None,
    gate: Annotated[
        float | None,
        typer.Option("--gate", min=0.0, max=1.0, help="Lowest passing overall run score (0-1)."),
    ] = None,
    pyproject: Annotated[
        bool,
        typer.Option(
            "--pyproject", help="Add the tool.failproof tables to pyproject.toml instead."
        ),
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Ask nothing: flags, then the defaults.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite failproof.toml.")] = False,
) -> None:
    """Write failproof.toml: the target(s), suites, judge and gate that 'failproof run' runs.

    Asks for what the flags leave out (in a terminal, unless --yes). The file is read back and
    checked before this command ends.
    """
    from failproof.config import load_settings

    ask: Ask | None = None
    if not yes and sys.stdin.isatty():
        ask = _prompt
    answers = gather_answers(target or [], suite or [], judge, gate, ask)
    _check_suites(answers.suites)
    _check_targets([*answers.targets, *([answers.judge] if answers.judge else [])])
    path = _write(answers, pyproject, force)
    load_settings(config_file=path)  # what was written reads back as valid settings
    say(f"wrote {path}; run the project with: failproof run")


def _prompt(question: str, default: str) -> str:
    return str(typer.prompt(question, default=default, show_default=bool(default)))
