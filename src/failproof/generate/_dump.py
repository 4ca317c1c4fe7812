"""Write a suite back to a suite file (YAML or JSON) that `failproof.suites.load_suite` reads."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import yaml

from failproof.core import Case, Suite
from failproof.errors import InputError
from failproof.guard._json import JsonObject

__all__ = ["dump_suite", "suite_document", "write_suite"]


def _has_invisible(value: str) -> bool:
    return not value.isascii() and any(unicodedata.category(ch) == "Cf" for ch in value)


class _Dumper(yaml.SafeDumper):
    """Safe YAML: multi-line strings as literal blocks where YAML allows it, and strings with
    invisible characters (zero-width, bidi controls) double-quoted with ``\\u`` escapes, so a
    reader of the file sees them."""

    def write_double_quoted(self, text: str, split: bool = True) -> None:
        if not _has_invisible(text):
            super().write_double_quoted(text, split)
            return
        saved, self.allow_unicode = self.allow_unicode, False
        try:
            super().write_double_quoted(text, split)
        finally:
            self.allow_unicode = saved


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if _has_invisible(value) else "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _case_document(case: Case) -> JsonObject:
    document = case.model_dump(mode="json", exclude_defaults=True, exclude={"suite"})
    return {"id": document.pop("id"), **document}


def suite_document(suite: Suite) -> JsonObject:
    """The suite as the mapping of a suite file: suite, description, weight, cases."""
    return {
        "suite": suite.name,
        "description": suite.description,
        "weight": suite.weight,
        "cases": [_case_document(case) for case in suite.cases],
    }


def dump_suite(suite: Suite, *, fmt: str = "yaml") -> str:
    """The text of a suite file in ``fmt`` (``yaml`` or ``json``)."""
    document = suite_document(suite)
    if fmt == "json":
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return text


def write_suite(suite: Suite, path: str | Path) -> Path:
    """Write ``suite`` to ``path``; the format follows the suffix (.yaml, .yml or .json)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml", ".json"):
        raise InputError(
            f"{path}: cannot write a suite as {suffix or 'a file without suffix'!r}",
            hint="name the output .yaml, .yml or .json",
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_suite(suite, fmt="json" if suffix == ".json" else "yaml"), "utf-8")
    return path
