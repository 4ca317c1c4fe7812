"""The judge's rubrics: prompt templates kept as YAML data files in the package.

A rubric has a name, a version (part of every cache key: a new text needs a new version), a
system message and a user template whose ``$name`` fields are filled with the inputs. Inputs
are untrusted (a model's answer may try to talk to the judge): each sits between tags, and any
closing tag inside it is neutralised so it cannot end its block early.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from string import Template

from failproof.core import Message
from failproof.errors import ConfigError

__all__ = ["Rubric", "load_rubric"]

#: Invisible characters a closing tag may hide behind.
_ZERO_WIDTH = "\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff"
_HIDDEN = f"[\\s{_ZERO_WIDTH}]*"
#: A closing tag in any clothes a model reads as one: plain, fullwidth, entity-, percent- or
#: backslash-escaped, with invisible characters inside, attributes, or a slash before ``>``.
_CLOSING = re.compile(
    "(?:<|\uff1c|\ufe64|&lt;?|&#0*60;?|&#x0*3c;?|\\\\*u003c|\\\\+x3c|%3c)"
    + _HIDDEN
    + "(?:\\\\*/|\uff0f|&#0*47;?|&#x0*2f;?|&sol;|\\\\+u002f|%2f)"
    + _HIDDEN
    + f"((?:[a-z_][{_ZERO_WIDTH}]*)+)"
    + "[^<>\uff1c\uff1e]{0,200}?"
    + "(?:>|\uff1e|\ufe65|&gt;?|&#0*62;?|&#x0*3e;?|\\\\*u003e|\\\\+x3e|%3e)",
    re.IGNORECASE,
)
_INVISIBLE = re.compile(_HIDDEN)


def _neutralise(text: str) -> str:
    """``text`` with every closing tag written so that it closes nothing (``</x>`` -> ``< /x>``),
    whatever clothes the tag wears."""
    return _CLOSING.sub(lambda m: f"< /{_INVISIBLE.sub('', m.group(1))}>", text)


@dataclass(frozen=True, slots=True)
class Rubric:
    """One rubric: what to ask the judge, and under which name and version."""

    name: str
    version: int
    system: str
    user: str

    @property
    def tag(self) -> str:
        """``name@version``, as stored with every verdict."""
        return f"{self.name}@{self.version}"

    def messages(self, inputs: Mapping[str, str]) -> list[Message]:
        """The system and user messages, with the inputs filled in."""
        values = {key: _neutralise(value) for key, value in inputs.items()}
        user = Template(self.user).substitute(values)
        return [Message(role="system", content=self.system), Message(role="user", content=user)]


@cache
def load_rubric(name: str) -> Rubric:
    """The rubric ``name`` from the package's ``data/`` folder."""
    from failproof.guard import load_yaml  # read only when a judge grades

    resource = files("failproof.judge").joinpath("data", f"{name}.yaml")
    try:
        data = load_yaml(resource.read_text(encoding="utf-8"), source=f"{name}.yaml")
    except FileNotFoundError:
        raise ConfigError(f"no judge rubric {name!r}") from None
    return Rubric(
        name=str(data["name"]),
        version=int(data["version"]),
        system=str(data["system"]),
        user=str(data["user"]),
    )
