"""The presenters: what every renderer shows, read from a `Report` by attribute.

One module per thing a report shows, shared by the HTML, Markdown, console and JUnit renderers so
that they agree on every number; presenters select and format, they compute no new metric.

* `headline`: the verdict, the headline numbers and the counts by class and verdict.
* `breakdown`: the run by suite, severity and category; the failure modes; the worst cases.
* `cases`: finding the case a section names, so a row can open it.
* `geometry`, `safe`, `coverage`, `judge`: one section each.
* `stability`: robustness (originals vs variants) and consistency (repeated samples).
* `extensions`: every extension section, a plugin's drawn as generic tables.
"""

__all__: list[str] = []
