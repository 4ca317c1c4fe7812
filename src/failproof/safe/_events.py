"""Integration points (section 8): the observation store, ``safe:v0:result`` events, and hooks.

- Every scorecard is recorded in the results store with the report's timestamp (8.1).
- One ``safe:v0:result`` event per batch (8.2) goes to each ``--emit`` target: ``-`` (stdout), an
  ``http(s)://`` URL (one JSON POST per event), or a file (JSON lines, appended).
- Python hooks registered in `hooks` (from a plugin, through the ``failproof`` entry-point group)
  receive every event; a failing hook is a warning, never a crash.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from failproof.errors import FailproofError
from failproof.guard._json import JsonObject
from failproof.registry import PluginWarning, Registry
from failproof.safe._report import SafeReport
from failproof.store import Store

__all__ = [
    "EVENT_NAME",
    "SafeHook",
    "call_hooks",
    "emit_events",
    "hooks",
    "record_results",
    "result_events",
]

EVENT_NAME = "safe:v0:result"

#: A hook receives each ``safe:v0:result`` event (a JSON-ready dict).
SafeHook = Callable[[dict[str, Any]], None]

#: Hooks called with every SAFE v0 event; register with ``@hooks.register("name")``.
hooks: Registry[SafeHook] = Registry("SAFE hook")


def record_results(store: Store, report: SafeReport) -> int:
    """Record every scorecard in the store (the observation hook); returns how many."""
    return store.add_safe_results(
        {
            "batch_id": r.batch_id,
            "concern_id": report.concern_id,
            "test_id": r.test_id,
            "label": r.label,
            "scores": r.scores._asdict(),
            "timestamp": report.timestamp,
        }
        for r in report.results
    )


def _summary(labels: Sequence[str]) -> JsonObject:
    n = len(labels)
    passed = labels.count("Pass")
    return {
        "total_cases": n,
        "pass": passed,
        "review": labels.count("Review"),
        "fail": labels.count("Fail"),
        "overall_pass_rate": passed / n if n else 0.0,
    }


def result_events(report: SafeReport) -> list[JsonObject]:
    """One ``safe:v0:result`` event per scored batch."""
    labels: dict[str, list[str]] = {}
    for r in report.results:
        labels.setdefault(r.batch_id, []).append(r.label)
    return [
        {
            "event": EVENT_NAME,
            "concern_id": report.concern_id,
            "batch_id": batch_id,
            "summary": _summary(batch_labels),
            "timestamp": report.timestamp,
        }
        for batch_id, batch_labels in labels.items()
    ]


def _redact(url: str) -> str:
    """The URL without credentials or query string (they may hold secrets)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _post(url: str, event: dict[str, Any], timeout_s: float) -> None:
    body = json.dumps(event).encode("utf-8")
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            answer.read()
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "code", None) or exc
        raise FailproofError(
            f"could not emit {EVENT_NAME} to {_redact(url)}: {reason}",
            hint="check the --emit URL; the reports were written",
        ) from None


def _append(path: Path, lines: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(lines)
    except OSError as exc:
        raise FailproofError(f"could not emit {EVENT_NAME} to {path}: {exc}") from None


def emit_events(
    events: Sequence[dict[str, Any]],
    targets: Sequence[str],
    *,
    stdout: TextIO,
    timeout_s: float = 10.0,
) -> None:
    """Send every event to every target: ``-`` / ``stdout``, an HTTP(S) URL, or a JSONL file."""
    lines = "".join(json.dumps(event) + "\n" for event in events)
    for target in targets:
        if target in {"-", "stdout"}:
            stdout.write(lines)
            stdout.flush()
        elif target.startswith(("http://", "https://")):
            for event in events:
                _post(target, event, timeout_s)
        else:
            _append(Path(target), lines)


def call_hooks(events: Sequence[dict[str, Any]]) -> None:
    """Call every registered hook with every event; a hook that raises becomes a warning."""
    for entry in hooks:
        for event in events:
            try:
                entry.obj(event)
            except Exception as exc:
                warnings.warn(
                    f"SAFE hook {entry.name!r} failed: {exc!r}", PluginWarning, stacklevel=2
                )
                break
