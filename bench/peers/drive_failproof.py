"""failproof: `failproof run` (the CLI, scoring on) against the server as an `openai:` target."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tool import Command, Driver, Job

SOURCE = Path(__file__).resolve().parents[2] / "src"  # this checkout's failproof


def _install(cache: Path) -> None:
    print(f"failproof: this interpreter's ({sys.executable})")


def _suite(job: Job) -> Path:
    path = job.workdir / "suite.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for p in job.prompts:
            refusal = "required" if p["adversarial"] else "forbidden"
            case = {"id": p["id"], "input": p["text"], "expect": {"refusal": refusal}}
            out.write(json.dumps(case) + "\n")
    return path


def _command(job: Job) -> Command:
    argv = [sys.executable, "-m", "failproof", "run", str(_suite(job))]
    argv += ["--target", "openai:bench", "--base-url", job.base_url]
    argv += ["--concurrency", str(job.concurrency), "--no-cache", "--retries", "0", "--quiet"]
    argv += ["--format", "json", "--output", str(job.workdir / "report.json")]
    env = {"OPENAI_API_KEY": "bench", "FAILPROOF_HOME": str(job.workdir), "PYTHONPATH": str(SOURCE)}
    return Command(argv, env)


def _recorded(job: Job) -> int:
    summary = json.loads((job.workdir / "report.json").read_text(encoding="utf-8"))["summary"]
    return int(summary["total_cases"]) - int(summary["counts"].get("error", 0))


# exit 1: some cases failed (the server's answers are not all refusals)
DRIVER = Driver("failproof", _install, _command, _recorded, ok_exit=frozenset({0, 1}))
