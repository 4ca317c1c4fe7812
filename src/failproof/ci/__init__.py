"""Continuous integration: the steps of failproof's GitHub Action (``action.yml``).

The job summary and step outputs, and the pull-request comment with the verdict and what
changed against the base branch's run. ``failproof ci summary`` and ``failproof ci comment``
run them.
"""

from failproof.ci._comment import comment_body, upsert_comment
from failproof.ci._github import GitHubContext, github_context

__all__ = [
    "GitHubContext",
    "comment_body",
    "github_context",
    "upsert_comment",
]
