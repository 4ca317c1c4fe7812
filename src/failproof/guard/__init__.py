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
    from failproof.guard._files import atomic_write_text
    from failproof.guard._input import UnreadableInput
    from failproof.guard._json import loads_json
    from failproof.guard._secrets import add_secret, forget_secrets, redact
    from failproof.guard._text import for_console
    from failproof.guard._yaml import (
        compose_yaml,
        construct_yaml,
        load_yaml,
        read_yaml,
    )

__all__ = [
    "UnreadableInput",
    "add_secret",
    "atomic_write_text",
    "compose_yaml",
    "construct_yaml",
    "for_console",
    "forget_secrets",
    "load_yaml",
    "loads_json",
    "read_yaml",
    "redact",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
