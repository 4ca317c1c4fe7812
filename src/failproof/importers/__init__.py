"""Importers: test cases from other tools' files as failproof suites that validate.

``promptfoo`` (promptfooconfig.yaml), ``garak`` (report.jsonl) and ``csv`` (HarmBench, AdvBench,
JailbreakBench-style files). Each returns an `ImportResult`: the suite, and a summary of what
mapped and what did not.
"""

from failproof.importers._common import ImportResult
from failproof.importers._csv import CsvColumns, import_csv
from failproof.importers._garak import import_garak
from failproof.importers._promptfoo import import_promptfoo

__all__ = [
    "CsvColumns",
    "ImportResult",
    "import_csv",
    "import_garak",
    "import_promptfoo",
]
