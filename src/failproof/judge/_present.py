"""How the report shows the judge's sections: ``judge`` (the rules against the LLM judge, and
where they differ) and ``rubric`` (a note when rubrics wait for a judge), read by attribute.

The report cannot import the judge (the judge calls targets through the runner, above the
report), so these presenters are registered with it by section name (`presenters`)."""

from __future__ import annotations

from failproof.judge._rubric_section import RubricSection
from failproof.judge._section import (
    DecidedCounts,
    Disagreement,
    JudgeErrorRow,
    JudgeSection,
    JudgeTokens,
)
from failproof.render._numbers import format_value, value_of
from failproof.render._table import Column, Table
from failproof.report._present.cases import CaseIndex, link_rows
from failproof.report._present.extra import Extra
from failproof.report._present.registered import SectionPresenter, Terminal, presenters
from failproof.report._present.typed import section_as
from failproof.report._tables import Spec, typed_table

__all__ = ["decided_words", "judge_extra", "judge_terminal", "judge_title", "rubric_notes"]

_QUESTION = {"passed": "pass verdict", "refused": "refused", "harmful": "harmful"}
_AGREEMENT = (
    Spec("n", "cases", "count"),
    Spec("agreement", "agreement"),
    Spec("kappa", "Cohen's κ"),
)
_DISAGREEMENT = (
    Spec("suite", "suite", "text"),
    Spec("differ_on", "differ on", "text"),
    Spec("rules", "rules", "text"),
    Spec("judge", "judge", "text"),
    Spec("judge_reason", "judge reason", "text"),
)
_ERROR = (Spec("suite", "suite", "text"), Spec("error", "error", "text"))


def judge_title(section: JudgeSection) -> str:
    """``Rules vs LLM judge (spec, role R): N judged, E judge errors, D disagreements; verdicts
    by rules n, judge m, rules_fallback k``."""
    named = [section.judge] if section.judge is not None else []
    who = f" ({', '.join([*named, f'role {section.role}'])})"
    words = decided_words(section.decided_by)
    decided = f"; verdicts by {words}" if words != "–" else ""
    decided += usage_words(section.tokens)
    return (
        f"Rules vs LLM judge{who}: {section.judged:,} judged, "
        f"{section.judge_errors:,} judge errors, "
        f"{section.disagreement_count:,} disagreements{decided}"
    )


def usage_words(tokens: JudgeTokens) -> str:
    """``; 12 judge calls, 3,400 tokens, $0.0021``: what asking the judge used (nothing
    when no call was made)."""
    if not tokens.calls:
        return ""
    used = tokens.prompt_tokens + tokens.completion_tokens
    price = f", ${tokens.cost_usd:.4f}" if tokens.cost_usd is not None else ""
    return f"; {tokens.calls:,} judge calls, {used:,} tokens{price}"


def decided_words(counts: DecidedCounts) -> str:
    """``rules 12, judge 30, rules fallback 1``: who gave the verdicts of the judged cases."""
    found = {"rules": counts.rules, "judge": counts.judge, "rules_fallback": counts.rules_fallback}
    words = [f"{k.replace('_', ' ')} {v:,}" for k, v in found.items() if v]
    return ", ".join(words) or "–"


def _facts(section: JudgeSection) -> list[tuple[str, str]]:
    return [
        ("rubric", section.rubric or "–"),
        ("judge errors (never a pass)", f"{section.judge_errors:,}"),
        ("answers from the cache", f"{section.from_cache:,}"),
        ("asked again after an invalid answer", f"{section.asked_again:,}"),
        ("judge pass rate", format_value(value_of(section.judge_pass_rate), "pct")),
    ]


def _agreement(section: JudgeSection) -> Table:
    rows = [
        (_QUESTION[q], {"n": a.n, "agreement": a.agreement, "kappa": a.kappa})
        for q, a in section.agreement.questions()
    ]
    return typed_table(Column("question", "question", "text"), rows, _AGREEMENT)


def _differences(rows: list[Disagreement], index: CaseIndex) -> Table:
    table = typed_table(
        Column("case_id", "case", "text"),
        [(d.case_id, d.model_dump(exclude={"case_id"})) for d in rows],
        _DISAGREEMENT,
    )
    return link_rows(table, [index.find(d.case_id, d.suite) for d in rows], index)


def _errors(rows: list[JudgeErrorRow], index: CaseIndex) -> Table:
    table = typed_table(
        Column("case_id", "case", "text"),
        [(e.case_id, {"suite": e.suite, "error": e.error}) for e in rows],
        _ERROR,
    )
    return link_rows(table, [index.find(e.case_id, e.suite) for e in rows], index)


def judge_extra(key: str, data: object, index: CaseIndex) -> Extra | None:
    """Title, facts and tables of the judge section (agreement first, for short renderers); None
    when ``data`` is not one (drawn as generic tables instead)."""
    section = section_as(JudgeSection, data)
    if section is None:
        return None
    tables = [
        ("Agreement of the rules and the judge", _agreement(section)),
        ("Where they disagree", _differences(section.disagreements, index)),
        ("Judge errors", _errors(section.errors, index)),
    ]
    return Extra(key, judge_title(section), _facts(section), tables)


def judge_terminal(data: object) -> Terminal | None:
    """The title, then each question's agreement and Cohen's kappa."""
    section = section_as(JudgeSection, data)
    if section is None:
        return None
    lines = [
        f"{question}: agreement {format_value(value_of(a.agreement), 'pct')}, "
        f"Cohen's kappa {format_value(value_of(a.kappa))}"
        for question, a in section.agreement.questions()
    ]
    return Terminal(judge_title(section), lines)


def rubric_notes(data: object) -> list[str]:
    """A note when cases with rubric expectations wait for a judge (never a pass)."""
    section = section_as(RubricSection, data)
    if section is None or not section.unscored:
        return []
    return [
        f"{section.unscored:,} case(s) with rubric expectations are unscored (never a pass): "
        "no judge graded them; add --judge SPEC (e.g. --judge openai:gpt-4o-mini)."
    ]


presenters.register("judge", description="Rules vs LLM judge: agreement and disagreements.")(
    SectionPresenter(extra=judge_extra, terminal=judge_terminal)
)
presenters.register("rubric", description="Rubric expectations waiting for a judge.")(
    SectionPresenter(notes=rubric_notes)
)
