"""``failproof ci``: the steps of the GitHub Action (job summary, outputs, pull-request comment)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from failproof.cli._app import ConfigOpt, app, settings_from
from failproof.cli._output import say

ci_app = typer.Typer(help="Steps of failproof's GitHub Action: job summary and PR comment.")
app.add_typer(ci_app, name="ci")

ReportsArg = Annotated[
    Path, typer.Argument(help="The folder 'failproof run -f all -o FOLDER' wrote.")
]


@ci_app.command("summary")
def summary(reports: ReportsArg) -> None:
    """Add the run's Markdown report(s) to the job summary ($GITHUB_STEP_SUMMARY) and set the
    step outputs report-dir, html and run-ids ($GITHUB_OUTPUT)."""
    from failproof.ci import github_context
    from failproof.ci._comment import run_pairs
    from failproof.ci._github import append_summary, set_outputs
    from failproof.report._load import read_report

    context = github_context(os.environ)
    pairs = run_pairs(reports, None)
    if not pairs:
        append_summary(context, "# failproof\n\nThe run wrote no report (see the step's log).")
        return
    side = reports / "side-by-side.md"
    if side.is_file():
        append_summary(context, side.read_text(encoding="utf-8"))
    for pair in pairs:
        markdown = pair.head.with_name("report.md")
        if markdown.is_file():
            append_summary(context, markdown.read_text(encoding="utf-8"))
    ids = [read_report(pair.head).run.id for pair in pairs]
    set_outputs(
        context,
        {"report-dir": str(reports.resolve()), "run-ids": " ".join(ids)},
    )


@ci_app.command("comment")
def comment(
    reports: ReportsArg,
    base: Annotated[
        Path | None, typer.Option("--base", help="The base branch run's report folder.")
    ] = None,
    post: Annotated[
        bool, typer.Option("--post/--no-post", help="Post or update the pull request's comment.")
    ] = True,
    exit_code_given: Annotated[
        int | None,
        typer.Option("--exit-code", help="The run's exit code (one target: shown as its verdict)."),
    ] = None,
    token_env: Annotated[
        str, typer.Option("--token-env", help="Variable holding the GitHub token.")
    ] = "GITHUB_TOKEN",
    config: ConfigOpt = None,
) -> None:
    """Compare the run with the base branch's (new failures first), add that to the job summary,
    write comment.md beside the reports and, on a pull request, post it or update the comment
    posted before."""
    from failproof.ci import comment_body, github_context, upsert_comment
    from failproof.ci._comment import run_pairs
    from failproof.ci._github import append_summary
    from failproof.report import compare_reports, exit_code
    from failproof.report._compare_md import compare_markdown
    from failproof.report._load import read_report

    settings = settings_from(config)
    context = github_context(os.environ, os.environ.get(token_env) or None)
    sections = []
    pairs = run_pairs(reports, base)
    for pair in pairs:
        head = read_report(pair.head)
        comparison = compare_reports(read_report(pair.base), head) if pair.base else None
        code = int(exit_code(head, settings.run.fail_under))
        if exit_code_given is not None and len(pairs) == 1:
            code = exit_code_given
        sections.append((pair.label, head, code, comparison))
        if comparison is not None:
            append_summary(context, compare_markdown(comparison))
    body = comment_body(sections, context.run_url)
    (reports / "comment.md").write_text(body, encoding="utf-8")
    if post and context.pull_request is not None:
        done = upsert_comment(context, body)
        say(f"failproof: {done} the comment on pull request #{context.pull_request}")
    else:
        say(f"wrote {reports / 'comment.md'}")
