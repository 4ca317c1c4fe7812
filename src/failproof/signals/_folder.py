"""Where checked pattern files are kept between runs: chosen once, at the command line."""

from __future__ import annotations

from pathlib import Path

__all__ = ["cache_folder", "use_cache_folder"]

_chosen: list[Path] = []  # the folder the command line chose, if it chose one


def use_cache_folder(folder: Path | None) -> None:
    """Keep checked pattern files under ``folder`` (``None``: keep nothing) from now on.

    The folder only saves time: what is kept there never changes a result (see `_disk`).
    """
    _chosen[:] = [] if folder is None else [folder / "signals"]


def cache_folder() -> Path | None:
    """Where checked pattern files are kept, if anywhere."""
    return _chosen[0] if _chosen else None
