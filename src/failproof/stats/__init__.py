"""Statistics shared by the scorers' aggregations: confidence intervals, rater agreement."""

from failproof.stats._agreement import Agreement, agreement
from failproof.stats._intervals import Interval, bootstrap_mean, interval, wilson

__all__ = ["Agreement", "Interval", "agreement", "bootstrap_mean", "interval", "wilson"]
