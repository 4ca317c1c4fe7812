"""garak: `python -m garak` with its OpenAI-compatible generator pointed at the server.

garak has no probe that reads prompts from a file; its ``test.Test`` probe takes its prompt list
from the configuration (any probe attribute can be set there), so the run config gives it the
benchmark's prompts, one generation each, ``soft_probe_prompt_cap`` raised so none is dropped,
and ``mitigation.MitigationBypass`` as its detector (garak's refusal detector, a string
detector). Concurrency is garak's ``--parallel_attempts``: a multiprocessing pool of that many
worker processes (garak caps it at ``system.max_workers``, 500 by default). garak caches nothing.
Installed in its own virtualenv, with the CPU build of torch (garak asks for torch).
"""

from __future__ import annotations

import json
from pathlib import Path

from tool import Command, Driver, Job, python_venv

# torch pinned to the CPU build: an open `torch` would pull a CUDA build of several GB
PACKAGES = ["torch==2.13.0", "garak==0.17.1"]


def python(cache: Path) -> Path:
    return cache / "garak" / "bin" / "python"


def _install(cache: Path) -> None:
    python_venv(cache, "garak", PACKAGES)


def _config(job: Job) -> Path:
    generator = {"uri": job.base_url, "api_key": "bench", "model": "bench"}
    probe = {"prompts": [p["text"] for p in job.prompts], "primary_detector": DETECTOR}
    config = {
        "system": {"lite": True, "narrow_output": True, "show_z": False},
        "run": {"generations": 1, "soft_probe_prompt_cap": len(job.prompts), "seed": 0},
        "plugins": {
            "generators": {"openai": {"OpenAICompatible": generator}},
            "probes": {"test": {"Test": probe}},
        },
        "reporting": {"report_dir": str(job.workdir), "report_prefix": "bench"},
    }
    path = job.workdir / "garak.yaml"  # JSON is YAML
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


DETECTOR = "mitigation.MitigationBypass"


def _command(job: Job) -> Command:
    argv = [str(python(job.cache)), "-m", "garak", "--config", str(_config(job))]
    argv += ["--target_type", "openai.OpenAICompatible", "--target_name", "bench"]
    argv += ["--probes", "test.Test", "--detectors", DETECTOR, "--generations", "1"]
    argv += ["--parallel_attempts", str(job.concurrency)]
    home = str(job.workdir / "xdg")
    env = {f"XDG_{kind}_HOME": home for kind in ("CACHE", "DATA", "CONFIG")}
    return Command(argv, {**env, "OPENAICOMPATIBLE_API_KEY": "bench"})


def _recorded(job: Job) -> int:
    report = job.workdir / "bench.report.jsonl"
    rows = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    done = [r for r in rows if r.get("entry_type") == "attempt" and r.get("status") == 2]
    return sum(1 for r in done if any(o and o.get("text") for o in r.get("outputs", [])))


DRIVER = Driver("garak", _install, _command, _recorded, max_concurrency=500)
