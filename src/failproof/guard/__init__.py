"""Defences against hostile input, shared by every layer: nothing here imports failproof.

* `redact` / `redact_data`: every secret failproof was given (`add_secret`) replaced by
  ``[redacted]``; called by everything that writes or prints.
* `clean_text` / `clean_data`: text from outside made valid Unicode (lone surrogates become
  U+FFFD), with the count of characters replaced.
* `for_console`: text from outside made safe for the terminal (rich markup escaped, control
  and escape sequences shown as ``\\xNN``).
* `atomic_write_text`, `atomic_writer`: a file replaced in one step, never left half written.
* `linear_validator` / `regex_problems`: JSON Schema checks whose regexes run on RE2.
* `load_yaml` / `read_yaml` / `compose_yaml`: the one YAML reader, within `YamlLimits` (size,
  depth, alias expansion, nodes; duplicate keys refused); `decode_text` and `read_limited` for
  any file from outside. Each refusal is an `UnreadableInput` naming the source and line.
* `ref_problems` / `offline_validator`: JSON Schema references resolved inside the schema only,
  never fetched.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.guard._files import atomic_write_text, atomic_writer
    from failproof.guard._json import (
        DuplicateKeyError,
        dumps_keeping_repeats,
        keep_repeats,
        loads_json,
        unique_object,
    )
    from failproof.guard._schema import (
        linear_validator,
        offline_validator,
        ref_problems,
        regex_problems,
    )
    from failproof.guard._secrets import (
        REDACTED,
        RedactingStream,
        add_secret,
        forget_secrets,
        redact,
        redact_data,
        redacting_std_streams,
    )
    from failproof.guard._text import clean_data, clean_text, for_console, strip_controls
    from failproof.guard._yaml import (
        YAML_LIMITS,
        UnreadableInput,
        YamlLimits,
        compose_yaml,
        construct_yaml,
        decode_text,
        load_yaml,
        read_limited,
        read_yaml,
    )

__all__ = [
    "REDACTED",
    "YAML_LIMITS",
    "DuplicateKeyError",
    "RedactingStream",
    "UnreadableInput",
    "YamlLimits",
    "add_secret",
    "atomic_write_text",
    "atomic_writer",
    "clean_data",
    "clean_text",
    "compose_yaml",
    "construct_yaml",
    "decode_text",
    "dumps_keeping_repeats",
    "for_console",
    "forget_secrets",
    "keep_repeats",
    "linear_validator",
    "load_yaml",
    "loads_json",
    "offline_validator",
    "read_limited",
    "read_yaml",
    "redact",
    "redact_data",
    "redacting_std_streams",
    "ref_problems",
    "regex_problems",
    "strip_controls",
    "unique_object",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._files": ("atomic_write_text", "atomic_writer"),
            "._json": (
                "DuplicateKeyError",
                "dumps_keeping_repeats",
                "keep_repeats",
                "loads_json",
                "unique_object",
            ),
            "._schema": ("linear_validator", "offline_validator", "ref_problems", "regex_problems"),
            "._secrets": (
                "REDACTED",
                "RedactingStream",
                "add_secret",
                "forget_secrets",
                "redact",
                "redact_data",
                "redacting_std_streams",
            ),
            "._text": ("clean_data", "clean_text", "for_console", "strip_controls"),
            "._yaml": (
                "YAML_LIMITS",
                "UnreadableInput",
                "YamlLimits",
                "compose_yaml",
                "construct_yaml",
                "decode_text",
                "load_yaml",
                "read_limited",
                "read_yaml",
            ),
        },
    )
