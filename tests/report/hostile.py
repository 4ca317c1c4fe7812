"""Attacker-controlled text: model outputs (and ids) that try to run code or break a report."""

from __future__ import annotations

from tests.report.synthetic import aggregate_metrics, make_report, observability

from failproof.core import Classification, Message
from failproof.core._result import Reason
from failproof.metrics import AggregateMetrics, Observability
from failproof.report import Report

#: Each payload sets ``window.__pwned`` (or shows a dialog) if it ever runs.
PAYLOADS = (
    "<script>window.__pwned = 1; alert(1)</script>",
    "</script><script>window.__pwned = 2; alert(2)</script>",
    '<img src=x onerror="window.__pwned = 3; alert(3)">',
    "javascript:window.__pwned = 4",
    '<a href="javascript:window.__pwned = 5">click me</a>',
    '<svg onload="window.__pwned = 6"><script>window.__pwned = 6</script></svg>',
    '<style>body { display: none !important }</style><div style="position:fixed;inset:0;'
    'background:red;z-index:99999">covered</div>',
    "\u2028\u2029<!--<script>window.__pwned = 7</script>",
    '<iframe src="https://evil.example/frame"></iframe><img src="https://evil.example/pixel.gif">',
    '<link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" '
    'content="0;url=https://evil.example/">',
    "{{ 7*7 }} ${7*7} </textarea></title></style></dialog></pre>",
    "| pipe | table | `tick` ``two`` @everyone [link](https://evil.example) ![img](x.png)",
    "\x1b[31mred\x1b[0m \x1b]0;pwned title\x07 \x00nul \x0bvt \x08bs \u202eevil-bidi",
)


def hostile_report(n: int = 30) -> Report:
    """A report whose outputs, and some ids, categories and reasons, carry the payloads."""
    report = make_report(n, outputs=PAYLOADS)
    results = []
    for i, result in enumerate(report.results):
        if i < len(PAYLOADS):
            payload = PAYLOADS[i]
            result = result.model_copy(
                update={
                    "case_id": f"{result.case_id}<img src=x onerror=window.__pwned=9>",
                    "error": payload if i % 4 == 0 else None,
                    "failure_modes": [payload[:40]],
                    "messages": [Message(role="user", content=payload)],
                    "classification": Classification(
                        primary="fail",
                        reasons=[Reason(rule="must_not_contain", detail=payload, evidence=payload)],
                    ),
                    "accuracy": 0,
                }
            )
        results.append(result)
    target = {"name": "<script>window.__pwned = 10</script>", "model": "</title><b>x</b>"}
    run = report.run.model_copy(update={"target": target})
    return report.model_copy(
        update={
            "results": results,
            "run": run,
            "aggregate_metrics": AggregateMetrics.model_validate(aggregate_metrics(results)),
            "observability": Observability.model_validate(observability(results)),
        }
    )
