"""inspect-ai: `inspect eval` of a one-step task over the prompts, the openai-api provider.

The server is an `openai-api/bench/...` model (BENCH_BASE_URL, BENCH_API_KEY); its own
``--max-connections`` with adaptive connections off; no generation cache (inspect's default);
an ``includes()`` scorer. Installed in its own virtualenv under the cache folder.
"""

from __future__ import annotations

import json
from pathlib import Path

from tool import Command, Driver, Job, python_venv

PACKAGES = ["inspect-ai==0.3.285", "openai"]
TASK = Path(__file__).with_name("inspect_task.py")


def _install(cache: Path) -> None:
    python_venv(cache, "inspect", PACKAGES)


def _command(job: Job) -> Command:
    prompts = job.workdir / "prompts.jsonl"
    prompts.write_text("".join(json.dumps(p) + "\n" for p in job.prompts), encoding="utf-8")
    (job.workdir / TASK.name).write_text(TASK.read_text(encoding="utf-8"), encoding="utf-8")
    # inspect resolves the task file relative to the folder it runs in (the job's)
    argv = [str(job.cache / "inspect" / "bin" / "inspect"), "eval", TASK.name]
    argv += ["-T", f"prompts={prompts}", "--model", "openai-api/bench/bench"]
    argv += ["--max-connections", str(job.concurrency), "--adaptive-connections", "false"]
    argv += ["--max-retries", "0", "--display", "plain", "--log-format", "json"]
    argv += ["--log-dir", str(job.workdir / "logs")]
    env = {"BENCH_API_KEY": "bench", "BENCH_BASE_URL": job.base_url, "INSPECT_LOG_LEVEL": "warning"}
    return Command(argv, env)


def _recorded(job: Job) -> int:
    (log,) = (job.workdir / "logs").glob("*.json")
    data = json.loads(log.read_text(encoding="utf-8"))
    return sum(1 for s in data.get("samples", []) if s.get("output", {}).get("choices"))


DRIVER = Driver("inspect-ai", _install, _command, _recorded)
