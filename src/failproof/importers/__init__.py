"""Importers: test cases from other tools' files as failproof suites that validate.

``promptfoo`` (promptfooconfig.yaml), ``garak`` (report.jsonl) and ``csv`` (HarmBench, AdvBench,
JailbreakBench-style files). Each returns an `ImportResult`: the suite, and a summary of what
mapped and what did not.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.importers._common import ImportResult, ImportSummary
    from failproof.importers._csv import CsvColumns, import_csv, parse_expect
    from failproof.importers._garak import import_garak
    from failproof.importers._promptfoo import import_promptfoo

__all__ = [
    "CsvColumns",
    "ImportResult",
    "ImportSummary",
    "import_csv",
    "import_garak",
    "import_promptfoo",
    "parse_expect",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._common": ("ImportResult", "ImportSummary"),
            "._csv": ("CsvColumns", "import_csv", "parse_expect"),
            "._garak": ("import_garak",),
            "._promptfoo": ("import_promptfoo",),
        },
    )
