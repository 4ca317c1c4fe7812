"""``failproof attack``: drive an attacker against a target with a strategy; resume; replay."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from failproof.cli._app import ConfigOpt, QuietOpt, SuitesArg, VerboseOpt, app
from failproof.cli._judge import (
    JudgeBaseUrlOpt,
    JudgeKeyEnvOpt,
    JudgeOpt,
    JudgeRoleOpt,
    judged_settings,
)
from failproof.cli._output import check_folder, say, stderr
from failproof.cli._select import (
    CategoryOpt,
    OnlyOpt,
    SampleOpt,
    SeverityOpt,
    selection_from,
)
from failproof.cli._target_options import (
    ApiKeyEnvOpt,
    BaseUrlOpt,
    ParamOpt,
    TargetOpt,
    role_option,
    target_options,
)
from failproof.errors import ConfigError

if TYPE_CHECKING:
    from typer.models import OptionInfo

    from failproof.attack import AttackReport, AttackRequest
    from failproof.attack._context import AttackContext
    from failproof.config import Settings
    from failproof.core import Attack, AttackStep
    from failproof.store import Store

__all__ = ["attack", "attack_formats", "execute_attack"]

_FORMATS = ("json", "markdown", "html")
_SUFFIX = {"json": "json", "markdown": "md", "html": "html"}


def _request(
    suites: list[str], target: str | None, attacker: str | None, strategy: str | None
) -> tuple[list[str], str, str, str]:
    if not suites or not target or not attacker or not strategy:
        raise ConfigError(
            "give the suites, --target, --attacker and --strategy (or --resume ATTACK_ID)",
            hint="e.g. failproof attack jailbreak --target openai:m --attacker openai:m "
            "--strategy iterative",
        )
    from failproof.attack import strategies
    from failproof.runner._plan import suite_source

    strategies.get(strategy)  # an unknown strategy is refused before an attack id is announced
    return [suite_source(s) for s in suites], target, attacker, strategy


def attack_formats(value: str) -> list[str]:
    """The attack report formats asked for (json, markdown, html; a comma list or 'all')."""
    chosen = list(_FORMATS) if value == "all" else [f.strip() for f in value.split(",")]
    unknown = [f for f in chosen if f not in _FORMATS]
    if unknown:
        raise ConfigError(
            f"unknown attack report format {unknown[0]!r}", hint="json, markdown, html"
        )
    return chosen


def write_attack_report(
    report: AttackReport, formats: list[str], folder: Path, stem: str = "attack"
) -> list[Path]:
    """Write the report in each format into ``folder``; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in formats:
        path = folder / f"{stem}.{_SUFFIX[name]}"
        text = _render(report, name)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _render(report: AttackReport, name: str) -> str:
    from failproof.attack._html import attack_html
    from failproof.attack._markdown import attack_markdown

    if name == "markdown":
        return attack_markdown(report)
    if name == "html":
        return attack_html(report)
    return report.model_dump_json(indent=2)


def _price(model: str, tokens: str) -> OptionInfo:
    """The option of the ``model``'s (target or attacker) price of ``tokens`` (prompt or
    completion) tokens: ``--cost-in``, ``--cost-out``, ``--attacker-cost-in``..."""
    side = "in" if tokens == "prompt" else "out"
    flag = f"--cost-{side}" if model == "target" else f"--{model}-cost-{side}"
    help_text = f"{model.capitalize()} price per 1M {tokens} tokens."
    option: OptionInfo = typer.Option(flag, min=0, help=help_text)
    return option


def _progress(ctx: AttackContext) -> None:
    from failproof.render._text import excerpt

    sent = sum(1 for s in ctx.steps if s.kind == "target" and s.round > 0)
    how = "broken" if ctx.broken else "held"
    if not ctx.broken and not sent and len(ctx.steps) > ctx.queries:
        how = "not attacked (the attacker declined to write an attack)"
    failed = [s.error for s in ctx.steps if s.kind == "target" and s.error is not None]
    if not ctx.broken and failed and len(failed) == ctx.queries:
        how = escape(f"not tested: every target call failed ({excerpt(failed[0], 200)})")
    where = escape(f"{ctx.case.suite}/{ctx.case.id}")
    calls = f"{ctx.queries} target call" + ("" if ctx.queries == 1 else "s")
    stderr.print(f"  {where}: {how} after {calls}", highlight=False)


def _run(request: AttackRequest | str, settings: Settings, quiet: bool) -> tuple[Attack, Store]:
    from failproof.attack import resume_attack, start_attack
    from failproof.attack._run import AttackInterrupted
    from failproof.runner._ids import new_run_id
    from failproof.store import Store

    store = Store(settings.db_path)
    attack_id = request if isinstance(request, str) else new_run_id()
    if not quiet:
        stderr.print(f"attack {attack_id}: started", highlight=False)
    on_case = None if quiet else _progress
    try:
        if isinstance(request, str):
            done = resume_attack(request, settings=settings, store=store, on_case=on_case)
        else:
            done = start_attack(
                request, settings=settings, store=store, attack_id=attack_id, on_case=on_case
            )
    except AttackInterrupted as stop:
        store.close()
        say(f"failproof: {stop}; resume with: failproof attack --resume {attack_id}")
        raise typer.Exit(130) from None
    return done, store


@app.command()
def attack(
    suites: SuitesArg = None,
    target: TargetOpt = None,
    attacker: Annotated[
        str | None,
        typer.Option("--attacker", "-a", help="The model that writes attacks: any target spec."),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", "-s", help="iterative, tree, crescendo or best_of_n."),
    ] = None,
    budget: Annotated[
        int, typer.Option("--budget", "-n", min=1, help="Target calls per case at most.")
    ] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random choice.")] = 0,
    token_budget: Annotated[
        int | None,
        typer.Option("--token-budget", min=1, help="Tokens per case at most (both models)."),
    ] = None,
    rpm: Annotated[
        float | None,
        typer.Option(
            "--rpm",
            min=0.001,
            help="Target requests per minute (shared by the attacker when it is the same server).",
        ),
    ] = None,
    tpm: Annotated[
        float | None, typer.Option("--tpm", min=0.001, help="Target tokens per minute.")
    ] = None,
    cost_in: Annotated[float | None, _price("target", "prompt")] = None,
    cost_out: Annotated[float | None, _price("target", "completion")] = None,
    attacker_cost_in: Annotated[float | None, _price("attacker", "prompt")] = None,
    attacker_cost_out: Annotated[float | None, _price("attacker", "completion")] = None,
    resume: Annotated[
        str | None,
        typer.Option("--resume", help="Continue a stopped attack; sends only what is missing."),
    ] = None,
    replay: Annotated[
        str | None,
        typer.Option("--replay", help="Retrace a stored attack offline and report it again."),
    ] = None,
    report: Annotated[
        list[str] | None,
        typer.Option("--report", help="Report stored attacks side by side; repeatable."),
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-c", min=1, help="Cases attacked at once.")
    ] = None,
    base_url: BaseUrlOpt = None,
    api_key_env: ApiKeyEnvOpt = None,
    param: ParamOpt = None,
    attacker_base_url: Annotated[str | None, role_option("attacker", "base-url")] = None,
    attacker_api_key_env: Annotated[str | None, role_option("attacker", "api-key-env")] = None,
    attacker_param: Annotated[list[str] | None, role_option("attacker", "param")] = None,
    width: Annotated[int, typer.Option("--width", min=1, help="tree: branches kept.")] = 3,
    branching: Annotated[
        int, typer.Option("--branching", min=1, help="tree: rewrites per branch.")
    ] = 2,
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=1, help="crescendo: escalating turns.")
    ] = 8,
    format: Annotated[
        str, typer.Option("--format", "-f", help="json, markdown, html, a comma list, or 'all'.")
    ] = "all",
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Folder (default failproof-results/<attack_id>/)."),
    ] = None,
    quiet: QuietOpt = False,
    only: OnlyOpt = None,
    category: CategoryOpt = None,
    severity: SeverityOpt = None,
    sample: SampleOpt = None,
    judge: JudgeOpt = None,
    judge_base_url: JudgeBaseUrlOpt = None,
    judge_api_key_env: JudgeKeyEnvOpt = None,
    judge_role: JudgeRoleOpt = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Attack every case with an attacker model and a strategy; report what broke and how.

    The goal test is failproof's own verdict (fail or policy_violation), never the attacker's;
    with --judge it is the verdict fused by the judge's role (a willing but useless answer is
    not a break, a disguised delivery is), and the report counts breaks by who decided them.
    A case the target cannot take (an agent case on a target that sends no tools) is not
    attacked and reads as not tested, never held. Every step is stored as it finishes. Exit 0
    nothing broke, 1 a case broke, 3 error (or a case not tested: the target could not take it,
    or every target call failed), 130 interrupted (the command to resume is printed).
    """
    from failproof.attack import AttackRequest, StrategyOptions, replay_attack
    from failproof.attack._request import Prices
    from failproof.store import Store

    settings = judged_settings(
        config,
        judge,
        judge_base_url,
        judge_api_key_env,
        judge_role,
        run__concurrency=concurrency,
        run__rpm=rpm,
        run__tpm=tpm,
    )
    chosen = attack_formats(format)
    if replay:
        with Store(settings.db_path) as store:
            stored = store.get_attack(replay)
            steps = replay_attack(replay, settings=settings, store=store)
        _finish([(stored, steps)], chosen, output or _folder(settings, replay), quiet, "replay")
    if report:
        with Store(settings.db_path, readonly=True) as store:
            attacks = [(store.get_attack(i), store.attack_steps(i)) for i in report]
        folder = output or _folder(settings, compare_name(report))
        _finish(attacks, chosen, folder, quiet, "attack")
    if resume:
        execute_attack(resume, settings, chosen, output, quiet)
    names, spec, attacker_spec, strategy_name = _request(suites or [], target, attacker, strategy)
    request = AttackRequest(
        suites=tuple(names),
        target=spec,
        attacker=attacker_spec,
        strategy=strategy_name,
        budget=budget,
        seed=seed,
        token_budget=token_budget,
        prices=Prices(
            target_in=cost_in,
            target_out=cost_out,
            attacker_in=attacker_cost_in,
            attacker_out=attacker_cost_out,
        ),
        target_options=target_options(
            base_url=base_url, api_key_env=api_key_env, params=param or []
        ),
        attacker_options=target_options(
            base_url=attacker_base_url,
            api_key_env=attacker_api_key_env,
            params=attacker_param or [],
        ),
        options=StrategyOptions(width=width, branching=branching, max_turns=max_turns),
        selection=selection_from(only, category, severity, sample, seed),
    )
    execute_attack(request, settings, chosen, output, quiet)


def execute_attack(
    request: AttackRequest | str,
    settings: Settings,
    formats: list[str],
    output: Path | None,
    quiet: bool,
) -> None:
    """Start (or resume, given its id) an attack, write its report, exit by what broke."""
    if output is not None:
        check_folder(output)  # before any call: the report goes there once every case is done
    done, store = _run(request, settings, quiet)
    with store:
        steps = store.attack_steps(done.id)
    _finish([(done, steps)], formats, output or _folder(settings, done.id), quiet, "attack")


def _folder(settings: Settings, name: str) -> Path:
    return Path(settings.report.output_dir) / name


#: The longest folder name a side-by-side report gets (a file system allows 255 bytes).
_MAX_NAME = 120


def compare_name(ids: list[str]) -> str:
    """The folder of stored attacks reported side by side: ``compare-`` and their ids, or, when
    that would be too long a name, the first id, how many more, and a digest of them all."""
    joined = "compare-" + "-".join(ids)
    if len(joined.encode()) <= _MAX_NAME:
        return joined
    digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()[:12]
    return f"compare-{ids[0][:40]}-and-{len(ids) - 1}-more-{digest}"


def _finish(
    attacks: list[tuple[Attack, list[AttackStep]]],
    formats: list[str],
    folder: Path,
    quiet: bool,
    stem: str,
) -> None:
    """Write the report, say how each strategy did; exit 1 when any case broke, else 3 when a
    case was not tested (the target could not take it, or every target call failed), else 0."""
    from failproof.attack._report import build_attack_report, untested

    report = build_attack_report(attacks)
    for path in write_attack_report(report, formats, folder, stem):
        stderr.print(f"wrote {path}", highlight=False)
    if not quiet:
        _say_strategies(report)
        _say_not_tested(report, [attack for attack, _ in attacks])
    broken = any(case.broken for case in report.cases)
    failed = any(untested(case) for case in report.cases)
    raise typer.Exit(1 if broken else 3 if failed else 0)


def _say_strategies(report: AttackReport) -> None:
    for name, summary in report.strategies.items():
        skipped = summary.get("not_attacked") or 0
        note = f", {skipped} not attacked: the attacker declined" if skipped else ""
        stderr.print(
            f"{escape(name)}: {summary['broken']} of {summary['cases']} cases broken{note}",
            highlight=False,
        )


def _say_not_tested(report: AttackReport, attacks: list[Attack]) -> None:
    """A line for the cases whose every target call failed, one per attack for the cases its
    target could not take."""
    from failproof.attack._report import untested
    from failproof.attack._view import unsupported_line

    failed = sum(1 for case in report.cases if untested(case) and case.unsupported is None)
    if failed:
        stderr.print(f"{failed} case(s) not tested: every target call failed", highlight=False)
    for attack in attacks:
        if line := unsupported_line(attack):
            say(line)
