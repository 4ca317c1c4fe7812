"""The GitHub Actions environment, read once: where the job summary and step outputs go, which
pull request this is, and how to reach the API.

Everything here comes from the runner's environment and event file: values are checked (the
pull-request number is an integer, the repository ``owner/name``, the API an http(s) URL) before
anything uses them. The token is a secret: it is registered with the redactor and never printed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from failproof.errors import ConfigError
from failproof.guard import add_secret

__all__ = ["GitHubContext", "append_summary", "github_context", "set_outputs"]

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_OUTPUT_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


class GitHubContext(BaseModel):
    """What the action's steps need from the GitHub runner."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    api_url: str = Field(default="https://api.github.com", description="GITHUB_API_URL.")
    server_url: str = Field(default="https://github.com", description="GITHUB_SERVER_URL.")
    repository: str | None = Field(default=None, description="GITHUB_REPOSITORY (owner/name).")
    run_id: str | None = Field(default=None, description="GITHUB_RUN_ID.")
    event_name: str | None = Field(default=None, description="GITHUB_EVENT_NAME.")
    pull_request: int | None = Field(default=None, description="The pull request's number.")
    summary_path: Path | None = Field(default=None, description="GITHUB_STEP_SUMMARY.")
    output_path: Path | None = Field(default=None, description="GITHUB_OUTPUT.")
    token: SecretStr | None = Field(default=None, exclude=True, repr=False)

    @property
    def run_url(self) -> str | None:
        """The workflow run's page (its summary and artifacts)."""
        if not self.repository or not self.run_id:
            return None
        return f"{self.server_url}/{self.repository}/actions/runs/{self.run_id}"


def _pull_request(event_path: str | None) -> int | None:
    if not event_path:
        return None
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    pull = event.get("pull_request") if isinstance(event, dict) else None
    number = pull.get("number") if isinstance(pull, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _url(value: str | None, default: str, name: str) -> str:
    if not value:
        return default
    if not re.match(r"^https?://[^\s/]+", value):
        raise ConfigError(f"{name} is not an http(s) URL: {value[:100]!r}")
    return value.rstrip("/")


def github_context(environ: Mapping[str, str], token: str | None = None) -> GitHubContext:
    """The context from the runner's environment variables (and the event file they name)."""
    repository = environ.get("GITHUB_REPOSITORY") or None
    if repository is not None and not _REPO.match(repository):
        raise ConfigError(f"GITHUB_REPOSITORY is not owner/name: {repository[:100]!r}")
    if token:
        add_secret(token)
    summary, output = environ.get("GITHUB_STEP_SUMMARY"), environ.get("GITHUB_OUTPUT")
    return GitHubContext(
        api_url=_url(environ.get("GITHUB_API_URL"), "https://api.github.com", "GITHUB_API_URL"),
        server_url=_url(
            environ.get("GITHUB_SERVER_URL"), "https://github.com", "GITHUB_SERVER_URL"
        ),
        repository=repository,
        run_id=environ.get("GITHUB_RUN_ID") or None,
        event_name=environ.get("GITHUB_EVENT_NAME") or None,
        pull_request=_pull_request(environ.get("GITHUB_EVENT_PATH")),
        summary_path=Path(summary) if summary else None,
        output_path=Path(output) if output else None,
        token=SecretStr(token) if token else None,
    )


def append_summary(context: GitHubContext, markdown: str) -> bool:
    """Add ``markdown`` to the job summary; False outside Actions (no GITHUB_STEP_SUMMARY)."""
    if context.summary_path is None:
        return False
    with context.summary_path.open("a", encoding="utf-8") as summary:
        summary.write(markdown.rstrip("\n") + "\n\n")
    return True


def set_outputs(context: GitHubContext, values: Mapping[str, str]) -> None:
    """Write step outputs (``name=value`` lines; values on one line)."""
    if context.output_path is None:
        return
    lines = []
    for name, value in values.items():
        if not _OUTPUT_NAME.match(name) or "\n" in value or "\r" in value:
            raise ValueError(f"output {name!r} must be a name and a one-line value")
        lines.append(f"{name}={value}\n")
    with context.output_path.open("a", encoding="utf-8") as out:
        out.write("".join(lines))
