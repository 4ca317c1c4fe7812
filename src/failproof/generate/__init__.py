"""Generate adversarial variants of suites' cases with registered mutators.

Built-in mutators: typos, homoglyphs, zero_width, leetspeak, case_flip, padding, base64,
mixed_language, json_break, injection_wrap, contradiction. Third-party mutators register in the
``mutators`` registry like every other plugin.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.generate._base import Mutation, Mutator, mutators
    from failproof.generate._dump import dump_suite, write_suite
    from failproof.generate._generate import generate_variants, variant_rng

__all__ = [
    "Mutation",
    "Mutator",
    "dump_suite",
    "generate_variants",
    "mutators",
    "variant_rng",
    "write_suite",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._base": ("Mutation", "Mutator", "mutators"),
            "._dump": ("dump_suite", "write_suite"),
            "._generate": ("generate_variants", "variant_rng"),
        },
    )
