"""Statistics shared by the scorers' aggregations: confidence intervals, rater agreement."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.stats._agreement import Agreement, agreement
    from failproof.stats._intervals import Interval, bootstrap_mean, interval, wilson

__all__ = ["Agreement", "Interval", "agreement", "bootstrap_mean", "interval", "wilson"]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._agreement": ("Agreement", "agreement"),
            "._intervals": ("Interval", "bootstrap_mean", "interval", "wilson"),
        },
    )
