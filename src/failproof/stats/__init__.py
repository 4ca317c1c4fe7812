"""Statistics shared by the scorers' aggregations: confidence intervals, rater agreement."""

from failproof.stats._agreement import Agreement, agreement
from failproof.stats._intervals import bootstrap_mean, wilson

__all__ = [
    "Agreement",
    "agreement",
    "bootstrap_mean",
    "wilson",
]
