"""``failproof safe``: score SAFE v0 batches (``safe score``), compare reports (``safe compare``).

Exit codes of ``safe score`` (section 7.3): 0 all Pass, 1 any Fail, 2 Review but no Fail (with
``--fail-under X``: 0 when the overall pass rate is at least X, else 1); ``safe compare`` exits 1
on a significant regression. Configuration or input errors exit 3.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from failproof.cli._app import VerboseOpt, app
from failproof.cli._judge import JudgeBaseUrlOpt, JudgeKeyEnvOpt, judged_settings
from failproof.cli._output import say, stderr

if TYPE_CHECKING:
    from failproof.safe import SafeReport

safe_app = typer.Typer(
    help="SAFE v0 clinical scorecard: CR / AH / AC, Pass / Review / Fail, and regressions.",
    no_args_is_help=True,
)
app.add_typer(safe_app, name="safe")

SafeFormatOpt = Annotated[
    str | None,
    typer.Option("--format", "-f", help="json, console, markdown, a comma list, or all."),
]
SafeOutputOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="A file when one format is asked for, else a folder."),
]


def _console() -> Console:
    return Console(width=None if sys.stdout.isatty() else 120, highlight=False)


def _flags(
    fmt: str | None,
    data_dir: Path | None,
    strict_ah: bool | None,
    match: str | None,
    similarity: float | None,
) -> dict[str, object]:
    from failproof.safe._outputs import parse_safe_formats

    return {
        "reportFormats": parse_safe_formats(fmt) if fmt else None,
        "dataDir": str(data_dir) if data_dir is not None else None,
        "strictAH": strict_ah,
        "match": match,
        "similarity": similarity,
    }


def _integrate(report: SafeReport, emit: list[str]) -> None:
    """Record every scorecard in the store, emit the events, call the hooks."""
    from failproof.config import load_settings
    from failproof.safe._events import call_hooks, emit_events, record_results, result_events
    from failproof.store import Store

    with Store(load_settings().db_path) as store:
        record_results(store, report)
    events = result_events(report)
    emit_events(events, emit, stdout=sys.stdout)
    call_hooks(events)


@safe_app.command("score")
def score(
    concern: Annotated[str, typer.Option("--concern", help="Concern id: the folder of batches.")],
    batch: Annotated[
        str, typer.Option("--batch", help="Batch id or glob: 'I25_batch_1', 'I25_batch_*', '*'.")
    ],
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Holds <concern>/<batch>.json (default .).")
    ] = None,
    output: SafeOutputOpt = None,
    fmt: SafeFormatOpt = None,
    strict_ah: Annotated[
        bool | None,
        typer.Option("--strict-ah/--proportional-ah", help="Binary AH (default: proportional)."),
    ] = None,
    verbose: VerboseOpt = False,
    config: Annotated[
        Path | None, typer.Option("--config", help="SAFE config (default ./safe.config.json).")
    ] = None,
    keep_going: Annotated[
        bool, typer.Option("--keep-going", help="Skip bad records; the report lists them.")
    ] = False,
    emit: Annotated[
        list[str] | None,
        typer.Option("--emit", help="Send safe:v0:result events to -, a URL or a file (repeat)."),
    ] = None,
    fail_under: Annotated[
        float | None,
        typer.Option("--fail-under", min=0.0, max=1.0, help="Gate on the overall pass rate."),
    ] = None,
    match: Annotated[
        str | None, typer.Option("--match", help="CR/AC matching: exact (default) or semantic.")
    ] = None,
    similarity: Annotated[
        float | None,
        typer.Option("--similarity", min=0.0, max=1.0, help="Semantic threshold (default 0.8)."),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="AH by an LLM judge too (opt-in): a forbidden idea in other words also "
            "counts. Any target: openai:MODEL, local, ...",
        ),
    ] = None,
    judge_base_url: JudgeBaseUrlOpt = None,
    judge_api_key_env: JudgeKeyEnvOpt = None,
) -> None:
    """Score SAFE v0 batch files, print the scorecard and write the JSON / Markdown reports."""
    from failproof.safe import ah_matchers, load_safe_config
    from failproof.safe._api import safe_exit_code, score_concern
    from failproof.safe._outputs import write_outputs

    flags = _flags(fmt, data_dir, strict_ah, match, similarity)
    if judge:
        flags["ahMatcher"] = "judge"
    settings = load_safe_config(flags, config_file=config)
    judged = judged_settings(None, judge, judge_base_url, judge_api_key_env)
    ah = ah_matchers.get(settings.ah_matcher).from_settings(settings, judged.judge)
    try:
        report = score_concern(concern, batch, settings, keep_going=keep_going, ah=ah)
    finally:
        ah.close()
    for skipped in report.skipped:
        say(f"skipped: {skipped.describe()}")
    written = write_outputs(
        report,
        settings.report_formats,
        output=output,
        report_dir=settings.report_dir,
        console=_console(),
        verbose=verbose,
    )
    for path in written:
        say(f"wrote {path}")
    _integrate(report, emit or [])
    raise typer.Exit(int(safe_exit_code(report, fail_under)))


@safe_app.command("compare")
def compare(
    baseline: Annotated[Path, typer.Argument(help="The baseline SAFE v0 JSON report.")],
    current: Annotated[Path, typer.Argument(help="The current SAFE v0 JSON report.")],
    alpha: Annotated[
        float, typer.Option("--alpha", min=0.0, max=1.0, help="Significance level (Holm).")
    ] = 0.05,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the permutation test.")] = 0,
    resamples: Annotated[
        int, typer.Option("--resamples", min=100, help="Random sign patterns (large samples).")
    ] = 10_000,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="console, json, markdown, or a comma list.")
    ] = "console",
    output: SafeOutputOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Compare two SAFE v0 JSON reports; exit 1 when a significant regression is found."""
    from failproof.safe._compare import compare_reports, load_report
    from failproof.safe._compare_render import comparison_markdown, print_comparison
    from failproof.safe._outputs import REPORT_EXTENSIONS, parse_safe_formats

    comparison = compare_reports(
        load_report(baseline), load_report(current), alpha=alpha, seed=seed, resamples=resamples
    )
    texts = {
        "json": lambda: json.dumps(comparison.to_json(), indent=2) + "\n",
        "markdown": lambda: comparison_markdown(comparison),
    }
    formats = parse_safe_formats(fmt)
    if "console" in formats:
        print_comparison(comparison, _console())
    files = [f for f in formats if f in texts]
    for name in files:
        text = texts[name]()
        if output is None:
            sys.stdout.write(text)
            continue
        name_in_folder = f"SAFE_v0_comparison{REPORT_EXTENSIONS[name]}"
        path = output if len(files) == 1 else output / name_in_folder
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        stderr.print(f"wrote {path}", highlight=False)
    raise typer.Exit(1 if comparison.regression else 0)
