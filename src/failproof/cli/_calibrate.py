"""``failproof calibrate``: measure the refusal judge on your own human-labelled responses."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import ConfigOpt, VerboseOpt, app
from failproof.cli._judge import JudgeBaseUrlOpt, JudgeKeyEnvOpt, JudgeOpt, judged_settings
from failproof.cli._output import stderr

if TYPE_CHECKING:
    from failproof.config import Settings
    from failproof.detect import CalibrationReport, LabelledSet
    from failproof.judge._client import JudgeAnswer


def _split(values: str | None) -> list[str] | None:
    return None if values is None else [v for v in values.split(",") if v.strip()]


@app.command("calibrate")
def calibrate_command(
    labelled: Annotated[
        Path, typer.Argument(help="CSV of responses with a human label each (# lines skipped).")
    ],
    prompt_col: Annotated[
        str | None,
        typer.Option(
            "--prompt-col",
            help="Column of the prompt (default: 'prompt' when the file has it). The judge uses "
            "it to spot answers that ignore the question.",
        ),
    ] = None,
    response_col: Annotated[
        str, typer.Option("--response-col", help="Column of the response text.")
    ] = "response",
    label_col: Annotated[str, typer.Option("--label-col", help="Column of the label.")] = "label",
    positive: Annotated[
        str | None,
        typer.Option(
            "--positive",
            help="Comma list of labels that mean refusal "
            "(default: refusal,full_refusal,refused,1,true,yes).",
        ),
    ] = None,
    partial: Annotated[
        str | None,
        typer.Option(
            "--partial",
            help="Comma list of labels that mean partial refusal (default: partial_refusal,"
            "partial); they count as refusal, and give the three-way macro-F1.",
        ),
    ] = None,
    negative: Annotated[
        str | None,
        typer.Option(
            "--negative",
            help="Comma list of labels that mean compliance "
            "(default: compliance,full_compliance,complied,0,false,no).",
        ),
    ] = None,
    safe_col: Annotated[
        str | None,
        typer.Option(
            "--safe-col",
            help="Column marking prompts that are safe to answer (safe/1/true/yes): "
            "adds the over-refusal rate.",
        ),
    ] = None,
    peers: Annotated[
        Path | None,
        typer.Option("--peers", help="Peer refusal lists (JSON) to measure side by side."),
    ] = None,
    harm_col: Annotated[
        str | None,
        typer.Option(
            "--harm-col",
            help="With --judge: column marking harmful answers (1/true/yes/harmful, or a score "
            ">= 0.5): adds the harm table of rules, judge and roles.",
        ),
    ] = None,
    judge: JudgeOpt = None,
    judge_base_url: JudgeBaseUrlOpt = None,
    judge_api_key_env: JudgeKeyEnvOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Measure failproof's refusal judgment (and optional peer detectors, and an LLM judge with
    --judge) on a labelled CSV.

    With --judge it also prints rules, judge and each judge role (advise, hybrid, decide) side by
    side, for refusal (and for harm with --harm-col), with false passes and false alarms: the
    evidence for choosing --judge-role before gating CI on it."""
    from failproof.detect import format_table, load_peers
    from failproof.detect._calibrate import calibrate
    from failproof.detect._labelled import LabelSpec, read_labelled_csv

    data = read_labelled_csv(
        labelled,
        response_col=response_col,
        label_col=label_col,
        prompt_col=prompt_col or "prompt",
        require_prompt=prompt_col is not None,
        safe_col=safe_col,
        labels=LabelSpec.from_lists(_split(positive), _split(partial), _split(negative)),
    )
    detectors = load_peers(peers) if peers else ()
    report = calibrate(data, peers=detectors)
    prompts = "with prompts" if any(r.prompt for r in data) else "without prompts"
    typer.echo(f"{len(data)} labelled responses from {labelled} ({prompts}), one scan each\n")
    roles = ""
    if judge or judge_base_url:
        settings = judged_settings(config, judge, judge_base_url, judge_api_key_env)
        harmful = _harm_labels(labelled, harm_col) if harm_col else None
        report, roles = _with_judge(report, data, settings, harmful)
    typer.echo(format_table(report))
    if roles:
        typer.echo("\n" + roles)
    raise typer.Exit(0)


def _harm_labels(path: Path, column: str) -> list[bool]:
    from failproof.detect._labelled import read_csv_column

    def harmful(value: str) -> bool:
        text = value.strip().lower()
        try:
            return float(text) >= 0.5
        except ValueError:
            return text in {"true", "yes", "harmful", "unsafe", "y"}

    return [harmful(v) for v in read_csv_column(path, column)]


def _with_judge(
    report: CalibrationReport,
    data: LabelledSet,
    settings: Settings,
    harmful: list[bool] | None,
) -> tuple[CalibrationReport, str]:
    from failproof.detect import CalibrationReport, judge_response
    from failproof.judge import calibrate_judge
    from failproof.judge._roles import format_roles, role_tables
    from failproof.signals import default_matcher

    done = [0]

    def tick(_answer: JudgeAnswer) -> None:
        done[0] += 1
        if done[0] % 25 == 0 or done[0] == len(data):
            stderr.print(f"judge: {done[0]}/{len(data)} answered", highlight=False)

    measured = calibrate_judge(data, settings, on_answer=tick)
    typer.echo(
        f"judge {settings.judge.spec}: {measured.errors} judge errors (counted as wrong), "
        f"{measured.cached} answers from the cache, {measured.asked_again} asked again\n"
    )
    first = next((a.error for a in measured.answers if a.error), None)
    if first is not None:
        stderr.print(f"judge: first error: {first!r}", highlight=False, markup=False)
    matcher = default_matcher()
    rules = [
        judge_response(row.response, matcher.scan(row.response), prompt=row.prompt) for row in data
    ]
    tables = role_tables(data, rules, measured.answers, harmful)
    return CalibrationReport(report.data, (*report.rows, measured.row)), format_roles(tables)
