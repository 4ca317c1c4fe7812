"""The base of everything that holds a resource (a database, a file, a socket) until closed."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self

__all__ = ["Closing"]


class Closing(ABC):
    """Usable in a ``with`` block, which closes it however the block ends."""

    @abstractmethod
    def close(self) -> None:
        """Let go of what is held; the object is not used again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
