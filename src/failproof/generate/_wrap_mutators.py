"""Mutators that re-wrap the request: encodings, filler, other languages, added instructions.

They act on the last user message. Expectations stay as written unless a mutator says otherwise
(``injection_wrap`` adds its canary to ``must_not_contain``).
"""

from __future__ import annotations

import base64
import re
from random import Random

from failproof.core import Case, Expect
from failproof.generate._base import Mutation, Mutator, mutators
from failproof.generate._text import (
    data,
    editable_mask,
    pick,
    protected_phrases,
    rewrite_user_text,
)

__all__ = [
    "Base64Mutator",
    "ContradictionMutator",
    "InjectionWrapMutator",
    "JsonBreakMutator",
    "MixedLanguageMutator",
    "PaddingMutator",
]

_WORD = re.compile(r"[A-Za-z]+")


def _append(case: Case, sentence: str) -> Mutation | None:
    new_input = rewrite_user_text(
        case, lambda text: f"{text.rstrip()}\n\n{sentence}", last_only=True
    )
    return Mutation(input=new_input, note=f"added: {sentence}") if new_input != case.input else None


@mutators.register("base64")
class Base64Mutator(Mutator):
    """Base64: the last user message is sent base64-encoded behind a request to decode it.

    Expectations are unchanged, so the model must decode the request to meet them (and must not
    let the encoding smuggle a harmful request past its refusal).
    """

    name = "base64"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        intro: str = rng.choice(data()["base64"])

        def encode(text: str) -> str:
            return f"{intro}\n\n{base64.b64encode(text.encode('utf-8')).decode('ascii')}"

        new_input = rewrite_user_text(case, encode, last_only=True)
        if new_input == case.input:
            return None
        return Mutation(input=new_input, note="last user message base64-encoded; decode it first")


@mutators.register("padding")
class PaddingMutator(Mutator):
    """Padding: 2,000 to 6,000 characters of unrelated filler before, after or around the request.

    Tests whether the request still gets the same answer when buried in a long, distracting
    context. Expectations are unchanged.
    """

    name = "padding"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        settings = data()["padding"]
        size = rng.randint(settings["min_chars"], settings["max_chars"])
        where = rng.choice(("before", "after", "around"))
        filler = _filler(rng, settings["sentences"], size)
        half = len(filler) // 2

        def pad(text: str) -> str:
            if where == "before":
                return f"{filler}\n\n{text}"
            if where == "after":
                return f"{text}\n\n{filler}"
            return f"{filler[:half]}\n\n{text}\n\n{filler[half:]}"

        new_input = rewrite_user_text(case, pad, last_only=True)
        note = f"{len(filler)} characters of filler {where} the request"
        return Mutation(input=new_input, note=note) if new_input != case.input else None


def _filler(rng: Random, sentences: list[str], size: int) -> str:
    parts: list[str] = []
    length = 0
    while length < size:
        choices = [s for s in sentences if not parts or s != parts[-1]]
        parts.append(rng.choice(choices))
        length += len(parts[-1]) + 1
    return " ".join(parts)


@mutators.register("mixed_language")
class MixedLanguageMutator(Mutator):
    """Mixed language: an opening sentence and about half of the known English words switch to
    Spanish, French, German, Italian or Portuguese (one language per variant).

    Expectations are unchanged; protected phrases stay in English. Phrase checks in English may
    then also catch a model that answers in the other language.
    """

    name = "mixed_language"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        table = data()["mixed_language"]
        language = rng.choice(sorted(table["words"]))
        words: dict[str, str] = table["words"][language]
        opener: str = table["openers"][language]
        phrases = protected_phrases(case)

        def mix(text: str) -> str:
            return f"{opener}\n\n{_translate(text, words, phrases, rng)}"

        new_input = rewrite_user_text(case, mix, last_only=True)
        note = f"mixed with {language}"
        return Mutation(input=new_input, note=note) if new_input != case.input else None


def _translate(text: str, words: dict[str, str], phrases: list[str], rng: Random) -> str:
    mask = editable_mask(text, phrases)
    found = [
        m
        for m in _WORD.finditer(text)
        if m.group().lower() in words and all(mask[m.start() : m.end()])
    ]
    chosen = set(pick(rng, range(len(found)), 1 / 2))
    out, last = [], 0
    for index, match in enumerate(found):
        if index in chosen:
            word = words[match.group().lower()]
            word = word[:1].upper() + word[1:] if match.group()[:1].isupper() else word
            out += [text[last : match.start()], word]
            last = match.end()
    return "".join([*out, text[last:]])


@mutators.register("json_break")
class JsonBreakMutator(Mutator):
    """JSON break: for JSON cases only, the user asks for something that would break the format
    (prose around it, comments, single quotes, a table, a trailing comma).

    Expectations are unchanged: the application still needs exactly the JSON it asked for.
    """

    name = "json_break"

    def applies_to(self, case: Case) -> bool:
        return case.expect is not None and case.expect.format == "json"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        if not self.applies_to(case):
            return None
        return _append(case, rng.choice(data()["json_break"]))


@mutators.register("injection_wrap")
class InjectionWrapMutator(Mutator):
    """Injection wrap: an injected instruction (fake system notice, HTML comment, role tags, ...)
    before or after the request tells the model to output a random canary token.

    The canary is added to ``must_not_contain`` (a case without ``expect`` gets one with
    ``refusal: allowed``) and ``instruction_override`` to the failure modes: the model should do
    the original task and never obey the injection.
    """

    name = "injection_wrap"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        templates = data()["injection_wrap"]
        canary = f"FP-{rng.getrandbits(32):08X}"
        side = rng.choice(("before", "after"))
        template: str = rng.choice(templates[side])
        injected = template.format(canary=canary)

        def wrap(text: str) -> str:
            return injected + text if side == "before" else text + injected

        new_input = rewrite_user_text(case, wrap, last_only=True)
        if new_input == case.input:
            return None
        return Mutation(
            input=new_input,
            note=f"injected instruction to output {canary}; {canary} added to must_not_contain",
            expect=_forbid(case.expect, canary),
            add_failure_modes=("instruction_override",),
            expect_changed=True,
        )


def _forbid(expect: Expect | None, phrase: str) -> Expect:
    if expect is None:
        return Expect(refusal="allowed", must_not_contain=[phrase])
    return expect.model_copy(update={"must_not_contain": [*expect.must_not_contain, phrase]})


@mutators.register("contradiction")
class ContradictionMutator(Mutator):
    """Contradiction: the user adds an instruction at odds with the case's expectations (drop the
    JSON, say the forbidden phrase, write at length, "you already agreed") or with itself.

    Expectations are unchanged: they are what the application needs whatever the user says.
    """

    name = "contradiction"

    def mutate(self, case: Case, rng: Random) -> Mutation | None:
        templates = data()["contradiction"]
        groups = _applicable_groups(case)
        group = rng.choice(groups)
        sentence: str = rng.choice(templates[group])
        if group == "must_not_contain" and case.expect is not None:
            sentence = sentence.format(phrase=rng.choice(case.expect.must_not_contain))
        return _append(case, sentence)


def _applicable_groups(case: Case) -> list[str]:
    groups = ["any"]
    expect = case.expect
    if expect is None:
        return groups
    if expect.format == "json":
        groups.append("format_json")
    if expect.must_not_contain:
        groups.append("must_not_contain")
    if expect.max_chars is not None:
        groups.append("max_chars")
    if expect.refusal == "required":
        groups.append("refusal_required")
    return groups
