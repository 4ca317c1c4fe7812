"""Strings stored once and referred to by small integers."""

from __future__ import annotations

__all__ = ["Interner"]


class Interner:
    """Each distinct string gets the next integer on first sight; ``items[i]`` gives it back."""

    def __init__(self) -> None:
        self.items: list[str] = []
        #: The integer of each string seen (read it directly where a call costs too much).
        self.index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.items)
            self.items.append(text)
        return found
