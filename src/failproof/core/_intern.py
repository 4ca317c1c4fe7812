"""Strings stored once and referred to by small integers."""

from __future__ import annotations

__all__ = ["Interner"]


class Interner:
    """Each distinct string gets the next integer on first sight; ``items[i]`` gives it back."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        if text not in self._index:
            self._index[text] = len(self.items)
            self.items.append(text)
        return self._index[text]
