"""Continuous integration: the steps of failproof's GitHub Action (``action.yml``).

The job summary and step outputs, and the pull-request comment with the verdict and what
changed against the base branch's run. ``failproof ci summary`` and ``failproof ci comment``
run them.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.ci._comment import (
        MARKER,
        RunPair,
        comment_body,
        run_pairs,
        upsert_comment,
        verdict_line,
    )
    from failproof.ci._github import GitHubContext, append_summary, github_context, set_outputs

__all__ = [
    "MARKER",
    "GitHubContext",
    "RunPair",
    "append_summary",
    "comment_body",
    "github_context",
    "run_pairs",
    "set_outputs",
    "upsert_comment",
    "verdict_line",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._comment": (
            "MARKER",
            "RunPair",
            "comment_body",
            "run_pairs",
            "upsert_comment",
            "verdict_line",
        ),
        "._github": ("GitHubContext", "append_summary", "github_context", "set_outputs"),
    },
)
