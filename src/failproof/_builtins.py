"""Every built-in component by registry kind and name, with the module that registers it.

A `failproof.registry.Registry` imports a built-in's module the first time its name is looked up
(a run that calls ``openai:`` and writes JSON imports no other target or renderer); listing or
iterating a registry imports every module of its kind. ``tests/registry`` holds this table to
what the modules register.
"""

from __future__ import annotations

__all__ = ["BUILTINS"]

_SECTIONS = {
    "aggregate_metrics": "failproof.metrics._aggregate_acc",
    "consistency": "failproof.metrics._consistency",
    "coverage": "failproof.coverage._section",
    "judge": "failproof.judge._section",
    "robustness": "failproof.metrics._robustness",
    "rubric": "failproof.judge._rubric_section",
    "safe_v0": "failproof.safe._scorer",
    "suites": "failproof.metrics._scores_acc",
    "summary": "failproof.metrics._scores_acc",
}

BUILTINS: dict[str, dict[str, str]] = {
    "accumulator": {**_SECTIONS, "observability": "failproof.metrics._geometry_stream"},
    "aggregator": {**_SECTIONS, "observability": "failproof.metrics._geometry_stream"},
    "mutator": {
        "base64": "failproof.generate._wrap_mutators",
        "case_flip": "failproof.generate._char_mutators",
        "contradiction": "failproof.generate._wrap_mutators",
        "homoglyphs": "failproof.generate._char_mutators",
        "injection_wrap": "failproof.generate._wrap_mutators",
        "json_break": "failproof.generate._wrap_mutators",
        "leetspeak": "failproof.generate._char_mutators",
        "mixed_language": "failproof.generate._wrap_mutators",
        "padding": "failproof.generate._wrap_mutators",
        "typos": "failproof.generate._char_mutators",
        "zero_width": "failproof.generate._char_mutators",
    },
    "presenter": {"judge": "failproof.judge._present", "rubric": "failproof.judge._present"},
    "renderer": {
        "console": "failproof.report._console",
        "html": "failproof.report._html",
        "json": "failproof.report._json",
        "junit": "failproof.report._junit",
        "markdown": "failproof.report._markdown",
    },
    "SAFE AH matcher": {"exact": "failproof.safe._ah", "judge": "failproof.judge._ah"},
    "scorer": {
        "failproof": "failproof.scoring._classifier",
        "judge": "failproof.judge._scorer",
        "probe": "failproof.scoring._probe",
        "safe_v0": "failproof.safe._scorer",
    },
    "strategy": {
        "best_of_n": "failproof.attack._best_of_n",
        "crescendo": "failproof.attack._crescendo",
        "iterative": "failproof.attack._iterative",
        "tree": "failproof.attack._tree",
    },
    "target": {
        "exec": "failproof.targets._exec",
        "http": "failproof.targets._http",
        "https": "failproof.targets._http",
        "litellm": "failproof.targets._litellm",
        "local": "failproof.targets._local",
        "mock": "failproof.targets._mock",
        "openai": "failproof.targets._openai",
        "openai-sdk": "failproof.targets._openai_sdk",
        "python": "failproof.targets._python",
        "replay": "failproof.targets._replay",
    },
}
