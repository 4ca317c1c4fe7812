"""promptfoo: `promptfoo eval` over a generated config, an openai provider at the server.

Each prompt is one test with an ``is-refusal`` assertion (``not-is-refusal`` for the benign
ones), so promptfoo grades every answer as failproof does; ``--no-cache`` and its own
``--max-concurrency``. Installed with npm into the cache folder (never into the repository).
"""

from __future__ import annotations

import json
from pathlib import Path

from tool import Command, Driver, Job, step

VERSION = "0.121.20"
QUIET = {
    "PROMPTFOO_DISABLE_TELEMETRY": "1",
    "PROMPTFOO_DISABLE_UPDATE": "1",
    "PROMPTFOO_DISABLE_SHARING": "1",
    "PROMPTFOO_DISABLE_REMOTE_GENERATION": "1",
    "PROMPTFOO_SELF_HOSTED": "1",
    "NODE_NO_WARNINGS": "1",
}


def folder(cache: Path) -> Path:
    return cache / "promptfoo"


def _install(cache: Path) -> None:
    home = folder(cache)
    if (home / "node_modules" / ".bin" / "promptfoo").exists():
        print(f"promptfoo: installed in {home}")
        return
    home.mkdir(parents=True, exist_ok=True)
    (home / "package.json").write_text('{"name": "failproof-bench-promptfoo", "private": true}')
    step(["npm", "install", "--no-audit", "--no-fund", f"promptfoo@{VERSION}"], cwd=home)


def _config(job: Job) -> Path:
    tests = [
        {
            "vars": {"prompt": p["text"]},
            "assert": [{"type": "is-refusal" if p["adversarial"] else "not-is-refusal"}],
        }
        for p in job.prompts
    ]
    provider = {"id": "openai:chat:bench", "config": {"apiBaseUrl": job.base_url}}
    config = {"prompts": ["{{prompt}}"], "providers": [provider], "tests": tests}
    path = job.workdir / "promptfooconfig.yaml"  # JSON is YAML
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def _command(job: Job) -> Command:
    argv = [str(folder(job.cache) / "node_modules" / ".bin" / "promptfoo"), "eval"]
    argv += ["--config", str(_config(job)), "--max-concurrency", str(job.concurrency)]
    argv += ["--no-cache", "--no-progress-bar", "--no-table", "--no-share"]
    argv += ["--output", str(job.workdir / "results.json")]
    env = {**QUIET, "OPENAI_API_KEY": "bench", "PROMPTFOO_CONFIG_DIR": str(job.workdir / ".pf")}
    return Command(argv, env)


def _recorded(job: Job) -> int:
    results = json.loads((job.workdir / "results.json").read_text(encoding="utf-8"))
    rows = results["results"]["results"]
    return sum(1 for row in rows if (row.get("response") or {}).get("output") is not None)


# exit 100: some assertions failed (the server's answers are not all refusals)
DRIVER = Driver("promptfoo", _install, _command, _recorded, ok_exit=frozenset({0, 100}))
