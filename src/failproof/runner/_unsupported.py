"""Cases the target cannot take: found before anything is sent, stored as ``unsupported``.

Such a case is never sent (no call is spent on it): its result says which feature it needs and
why the target lacks it, counts apart from every verdict, and is in no score's denominator.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

from failproof.core import Case, CaseResult, Unsupported
from failproof.core._capabilities import NEEDS
from failproof.runner._engine import ResultSink, flush_sinks
from failproof.scoring._pipeline import unsupported_result
from failproof.store import Store
from failproof.targets import Target

__all__ = ["find_unsupported", "store_unsupported", "unsupported_line"]

Key = tuple[str, str]


def find_unsupported(target: Target, cases: Iterable[Case]) -> dict[Key, Unsupported]:
    """Refuse what ``target`` cannot send (`Target.check_cases`), then each case it cannot take,
    with the reason: ``cases`` are read once for both."""
    found: dict[Key, Unsupported] = {}

    def noting() -> Iterator[Case]:
        for case in cases:
            why = target.unsupported(case)
            if why is not None:
                found[case.key] = why
            yield case

    walk = noting()
    target.check_cases(walk)
    deque(walk, maxlen=0)  # the cases the target's check did not read
    return found


def unsupported_line(found: Mapping[Key, Unsupported], cases: int, target: Target) -> str:
    """One line: how many cases are not sent, grouped by the feature they need, and why."""
    by_feature = Counter(why.feature for why in found.values())
    because = target.capabilities().because
    parts = [f"{n} {NEEDS[feature]}" for feature, n in by_feature.most_common()]
    tail = f" ({because})" if because and set(by_feature) - {"context"} else ""
    return (
        f"{len(found)} of {cases} cases are unsupported by the {target.name} target and are not "
        f"sent: {', '.join(parts)}{tail}; they count apart, never as passes"
    )


def store_unsupported(
    found: Mapping[Key, Unsupported],
    cases: Iterable[Case],
    repeat: int,
    skip: Collection[tuple[str, str, int]],
    store: Store,
    run_id: str,
    sinks: Sequence[ResultSink] = (),
) -> set[tuple[str, str, int]]:
    """Store the result of every sample of each case in ``found`` not in ``skip`` (in one
    commit), tell ``sinks``, and return their keys: the engine skips them."""
    results: list[CaseResult] = []
    for case in cases if found else ():
        why = found.get(case.key)
        if why is None:
            continue
        for sample in range(repeat):
            if (case.suite, case.id, sample) not in skip:
                results.append(unsupported_result(case, why, sample=sample))
    store.add_results(run_id, results)
    for result in results:
        for sink in sinks:
            sink(result)
    flush_sinks(sinks)
    return {result.key for result in results}
