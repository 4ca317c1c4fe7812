"""Statistics shared by the scorers' aggregations: confidence intervals."""

from failproof.stats._intervals import Interval, bootstrap_mean, interval, wilson

__all__ = ["Interval", "bootstrap_mean", "interval", "wilson"]
