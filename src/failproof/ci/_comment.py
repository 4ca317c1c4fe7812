"""The pull-request comment: the verdict and what changed against the base branch's run, posted
once and updated on every later push (found again by a hidden marker)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from failproof.ci._github import GitHubContext
from failproof.errors import ConfigError, FailproofError
from failproof.render._text import md_code, md_text
from failproof.report import Comparison, Report
from failproof.report._compare_md import compare_markdown
from failproof.report._present.headline import headline

__all__ = [
    "MARKER",
    "RunPair",
    "comment_body",
    "run_pairs",
    "upsert_comment",
    "verdict_line",
]

MARKER = "<!-- failproof-action -->"
#: GitHub refuses comments past 65,536 characters.
MAX_BODY = 60_000
_PAGES = 20
_VERDICT = {0: "✅ PASS", 1: "❌ FAIL", 2: "⚠️ REVIEW"}


@dataclass(frozen=True, slots=True)
class RunPair:
    """One target's report in the head run, and the base branch's (None: no base run)."""

    label: str
    head: Path
    base: Path | None


def run_pairs(head: Path, base: Path | None) -> list[RunPair]:
    """Each ``report.json`` under ``head`` (one per target), matched by folder under ``base``."""
    found = sorted(head.rglob("report.json"))
    pairs = []
    for path in found:
        relative = path.relative_to(head)
        other = base / relative if base is not None else None
        label = str(relative.parent) if relative.parent != Path(".") else ""
        pairs.append(RunPair(label, path, other if other is not None and other.is_file() else None))
    return pairs


def verdict_line(report: Report, code: int) -> str:
    """``❌ FAIL · 7 of 28 passed · pass rate 25.0% · run score 35.4%``."""
    digest = report.digest()
    parts = [
        f"**{_VERDICT.get(code, '⛔ ERROR')}**",
        f"{digest.verdicts['pass']:,} of {digest.total:,} passed",
    ]
    if digest.verdicts["unsupported"]:
        parts.append(f"{digest.verdicts['unsupported']:,} unsupported (not run)")
    for stat in headline(report):
        if stat.key in ("pass_rate", "overall_run_score"):
            parts.append(f"{stat.label.lower()} {stat.text}")
    return " · ".join(parts)


def comment_body(
    sections: Sequence[tuple[str, Report, int, Comparison | None]], run_url: str | None
) -> str:
    """The comment: per target its verdict, then the comparison with the base run (new failures
    first) or a note that there was none; cut to what GitHub accepts."""
    lines = [MARKER, "# failproof", ""]
    for label, report, code, comparison in sections:
        title = f"## {md_code(label)}: " if label else "## "
        lines += [title + verdict_line(report, code), ""]
        target = md_text(report.run.target.get("name", "?"))
        lines += [f"Run {md_code(report.run.id)} against {target}.", ""]
        if comparison is None:
            lines += ["No run of the base branch to compare with.", ""]
        else:
            lines += [compare_markdown(comparison, limit=20).replace("\n## ", "\n### ", 1), ""]
    if run_url:
        lines.append(f"[Job summary and HTML report]({run_url})")
    body = "\n".join(lines).rstrip() + "\n"
    if len(body) > MAX_BODY:
        note = "\n\n… cut here: the full comparison is in the job summary.\n"
        body = body[: MAX_BODY - len(note)] + note
    return body


def _call(
    context: GitHubContext, method: str, path: str, payload: dict[str, str] | None = None
) -> object:
    if context.token is None:
        raise ConfigError("no GitHub token to post the comment", hint="give github-token")
    request = urllib.request.Request(
        context.api_url + path,
        method=method,
        data=json.dumps(payload).encode() if payload is not None else None,
        headers={
            "Authorization": f"Bearer {context.token.get_secret_value()}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "Content-Type": "application/json",
            "User-Agent": "failproof-action",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read(5_000_000)
    except urllib.error.HTTPError as exc:
        raise FailproofError(f"GitHub API {method} {path}: HTTP {exc.code}") from None
    except (urllib.error.URLError, TimeoutError) as exc:
        raise FailproofError(f"GitHub API {method} {path}: {exc}") from None
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        raise FailproofError(f"GitHub API {method} {path}: the answer is not JSON") from None


def _existing(context: GitHubContext, base: str) -> int | None:
    """The id of our earlier comment on the pull request, if any."""
    for page in range(1, _PAGES + 1):
        found = _call(context, "GET", f"{base}?per_page=100&page={page}")
        if not isinstance(found, list):
            return None
        for item in found:
            if not isinstance(item, dict):
                continue
            body, ident = item.get("body"), item.get("id")
            if isinstance(body, str) and body.startswith(MARKER) and isinstance(ident, int):
                return ident
        if len(found) < 100:
            return None
    return None


def upsert_comment(context: GitHubContext, body: str) -> Literal["created", "updated"]:
    """Post ``body`` on the pull request, or update the comment posted there before."""
    if context.repository is None or context.pull_request is None:
        raise ConfigError("not a pull request: no comment to post")
    issue = f"/repos/{context.repository}/issues/{context.pull_request}/comments"
    earlier = _existing(context, issue)
    if earlier is not None:
        try:
            _call(
                context,
                "PATCH",
                f"/repos/{context.repository}/issues/comments/{earlier}",
                {"body": body},
            )
            return "updated"
        except FailproofError:  # not ours to edit: post a new one
            pass
    _call(context, "POST", issue, {"body": body})
    return "created"
