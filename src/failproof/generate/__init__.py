"""Generate adversarial variants of suites' cases with registered mutators.

Built-in mutators: typos, homoglyphs, zero_width, leetspeak, case_flip, padding, base64,
mixed_language, json_break, injection_wrap, contradiction. Third-party mutators register in the
``mutators`` registry like every other plugin.
"""

from failproof.generate._base import Mutation, Mutator, mutators
from failproof.generate._dump import write_suite
from failproof.generate._generate import generate_variants

__all__ = [
    "Mutation",
    "Mutator",
    "generate_variants",
    "mutators",
    "write_suite",
]
