"""Definition-side checks of one server: every text against the rules, names, and schemas.

Deterministic: the same listing gives the same findings in the same order. A rule reports once
per (item, location), at its first match, with the matched text quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from failproof.mcp._chars import hidden_tag_text, invisible, mixed_scripts, show, skeleton
from failproof.mcp._model import Finding, ItemKind, ServerSurface, ToolDef
from failproof.mcp._rules import RuleBook, rulebook
from failproof.mcp._texts import Text, surface_texts

__all__ = [
    "TEXT_RULES",
    "check_surface",
    "evidence",
    "finding",
    "text_findings",
]

#: The pattern rules every text is checked against, in report order.
TEXT_RULES = (
    "mcp-instruction-override",
    "mcp-concealment",
    "mcp-sensitive-read",
    "mcp-cross-tool-data",
    "mcp-embedded-secret",
    "mcp-embedded-url",
    "mcp-markup",
)
_MASKED = frozenset({"mcp-embedded-secret"})
_CONTEXT = 60
_EVIDENCE = 320
_COMMAND = re.compile(
    r"^(command|cmd|shell|script|code|source|exec|execute|query|sql|statement|expression|expr"
    r"|eval|program)$|_(command|cmd|script|code|sql|query)$",
    re.IGNORECASE,
)
_PATH = re.compile(
    r"^(path|file|filename|filepath|dir|directory|folder|url|uri|location|destination)$"
    r"|_(path|file|filename|dir|directory|url|uri)$",
    re.IGNORECASE,
)
_BOUNDS = ("enum", "const", "pattern", "maxLength", "format")


def evidence(text: str, start: int, end: int, *, masked: bool = False) -> str:
    """The matched span with some context, invisible characters shown, cut to a bounded length."""
    span = text[start:end]
    if masked:
        span = f"{span[:4]}… ({end - start} characters, masked)"
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    quoted = ("…" if start > _CONTEXT else "") + before + span + after
    quoted += "…" if end + _CONTEXT < len(text) else ""
    shown = show(" ".join(quoted.split()))
    return shown if len(shown) <= _EVIDENCE else shown[: _EVIDENCE - 1] + "…"


def finding(
    book: RuleBook, rule_id: str, server: str, text: Text, detail: str, quoted: str
) -> Finding:
    """A finding of ``rule_id`` on ``text``."""
    rule = book.rule(rule_id)
    return Finding(
        rule=rule.id,
        title=rule.title,
        severity=rule.severity,
        server=server,
        kind=text.kind,
        item=text.item,
        location=text.location,
        detail=detail or rule.explain,
        evidence=quoted,
        taxonomy=list(rule.taxonomy),
    )


def text_findings(book: RuleBook, server: str, text: Text, rules: tuple[str, ...]) -> list[Finding]:
    """The pattern rules (and the invisible-character check) on one text."""
    found: list[Finding] = []
    hidden = _invisible_finding(book, server, text)
    if not book.any_match(rules, text.value):  # most texts: one pass, nothing found
        return [hidden] if hidden is not None else []
    for rule_id in rules:
        if rule_id == "mcp-embedded-url" and text.is_name:
            continue
        match = book.search(rule_id, text.value)
        if match is not None:
            quoted = evidence(text.value, match.start, match.end, masked=rule_id in _MASKED)
            found.append(finding(book, rule_id, server, text, "", quoted))
    return found + ([hidden] if hidden is not None else [])


def _invisible_finding(book: RuleBook, server: str, text: Text) -> Finding | None:
    chars = invisible(text.value)
    if not chars:
        return None
    codes = sorted({f"U+{ord(c):04X}" for _, c in chars})
    detail = f"{len(chars)} invisible character(s): {', '.join(codes[:8])}"
    tags = hidden_tag_text(text.value)
    if tags:
        detail += f"; the tag characters spell: {tags[:200]!r}"
    first = chars[0][0]
    quoted = evidence(text.value, first, first + 1)
    return finding(book, "mcp-invisible-characters", server, text, detail, quoted)


def _name_findings(book: RuleBook, server: str, text: Text) -> list[Finding]:
    scripts = mixed_scripts(text.value)
    fake = [c for c in text.value if c in book.confusables]
    if not scripts and not fake:
        return []
    looks = skeleton(text.value, book.confusables)
    why = f"letters from {', '.join(scripts)}" if scripts else "letters that imitate Latin ones"
    detail = f"the name mixes {why}; it reads as {looks!r}"
    quoted = "".join(f"{c}<U+{ord(c):04X}>" if ord(c) > 0x7F else c for c in text.value)
    return [finding(book, "mcp-deceptive-name", server, text, detail, quoted)]


def _unbounded(schema: object) -> bool:
    if not isinstance(schema, dict):
        return True
    kind = schema.get("type")
    stringy = kind in (None, "string") or (isinstance(kind, list) and "string" in kind)
    composite = any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref"))
    return stringy and not composite and not any(k in schema for k in _BOUNDS)


def _schema_findings(book: RuleBook, server: str, tool: ToolDef) -> Iterator[Finding]:
    properties = tool.input_schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    for name, schema in properties.items():
        text = Text("tool", tool.name, f"inputSchema.properties.{name}", str(name), True)
        if _COMMAND.search(str(name)) and _unbounded(schema):
            detail = f"the argument {name!r} takes any command or code (no enum, pattern or limit)"
            yield finding(book, "mcp-free-form-command", server, text, detail, f"{name}: {schema}")
        elif _PATH.search(str(name)) and _unbounded(schema):
            detail = f"the argument {name!r} takes any path or URL (no enum or pattern)"
            yield finding(book, "mcp-free-form-path", server, text, detail, f"{name}: {schema}")
    loose = _loose_schema(tool.input_schema, properties)
    if loose:
        text = Text("tool", tool.name, "inputSchema", "")
        yield finding(book, "mcp-unconstrained-schema", server, text, loose, str(tool.input_schema))


def _loose_schema(schema: dict[str, object], properties: dict[str, object]) -> str:
    if schema.get("additionalProperties") is True:
        return "the schema allows any further arguments (additionalProperties: true)"
    if schema.get("type") != "object":
        return "the schema does not say the arguments are an object"
    untyped = [n for n, s in properties.items() if isinstance(s, dict) and not _typed(s)]
    return f"arguments without a type: {', '.join(map(str, untyped))}" if untyped else ""


def _typed(schema: dict[str, object]) -> bool:
    return any(k in schema for k in ("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"))


def check_surface(server: str, surface: ServerSurface) -> list[Finding]:
    """Every definition-side finding on one server's surface."""
    book = rulebook()
    found: list[Finding] = []
    for text in surface_texts(surface):
        found += text_findings(book, server, text, TEXT_RULES)
        if text.is_name:
            found += _name_findings(book, server, text)
    for tool in surface.tools:
        found += _schema_findings(book, server, tool)
    for cut in surface.truncated:
        text = Text(_kind_of(cut), "", "listing", "")
        detail = f"the {cut} listing was cut at failproof's limit; the rest was not checked"
        found.append(finding(book, "mcp-listing-truncated", server, text, detail, cut))
    return found


def _kind_of(listing: str) -> ItemKind:
    return "tool" if listing == "tools" else "prompt" if listing == "prompts" else "resource"
