"""The bounded YAML loader: how fast hostile YAML is refused, and what the limits cost good files.

    python bench/yaml_loader.py [--rounds N]

Prints, for alias bombs of growing size (each a few hundred bytes), deep nesting and a large
merge-key chain, the bytes and the time to refusal; then the time to load every built-in suite
through the loader (best of N rounds, CPU time), with and without the tree check.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from failproof.guard import UnreadableInput, compose_yaml, construct_yaml, load_yaml
from failproof.guard import _yaml as bounded
from failproof.suites._resolve import builtin_suites_dir


def bomb(levels: int, width: int) -> str:
    lines = [f"a: &a [{','.join(['x'] * width)}]"]
    names = "abcdefghijklmnopqrstuvwxyz"
    for i in range(1, levels):
        refs = ",".join([f"*{names[i - 1]}"] * width)
        lines.append(f"{names[i]}: &{names[i]} [{refs}]")
    return "\n".join(lines) + "\n"


def hostile() -> dict[str, str]:
    merge = ["m0: &m0 {a: 1, b: 2}"]
    merge += [f"m{i}: &m{i} {{x: *m{i - 1}, y: *m{i - 1}, <<: *m{i - 1}}}" for i in range(1, 30)]
    return {
        "alias bomb 9 levels x 9": bomb(9, 9),
        "alias bomb 12 levels x 12": bomb(12, 12),
        "alias bomb 26 levels x 2": bomb(26, 2),
        "merge-key chain 30 levels": "\n".join(merge) + "\n",
        "flow nesting 100,000 deep": "[" * 100_000 + "]" * 100_000,
        "block nesting 1,500 deep": "".join(" " * i + "- \n" for i in range(1500)),
    }


def refusals() -> None:
    print("hostile YAML                          bytes    refused in")
    for name, text in hostile().items():
        start = time.perf_counter()
        try:
            load_yaml(text, source="bench.yaml")
            outcome = "LOADED"
        except UnreadableInput:
            outcome = "refused"
        ms = (time.perf_counter() - start) * 1000
        print(f"  {name:<34} {len(text.encode()):>7,}  {ms:8.1f} ms  {outcome}")


def suite_load(rounds: int, checked: bool) -> float:
    texts = [(p.read_text("utf-8"), str(p)) for p in sorted(builtin_suites_dir().glob("*.yaml"))]
    original = bounded._TreeCheck.run
    if not checked:
        bounded._TreeCheck.run = lambda self, root: None  # type: ignore[method-assign]
    try:
        best = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            for text, path in texts:
                construct_yaml(compose_yaml(text, source=path))
            best = min(best, time.process_time() - start)
    finally:
        bounded._TreeCheck.run = original  # type: ignore[method-assign]
    return best * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    refusals()
    count = len(list(builtin_suites_dir().glob("*.yaml")))
    checked = suite_load(args.rounds, checked=True)
    bare = suite_load(args.rounds, checked=False)
    print(f"built-in suites ({count} files), best of {args.rounds}, CPU time:")
    print(f"  composed + constructed, limits checked  {checked:7.1f} ms")
    print(f"  composed + constructed, no tree check   {bare:7.1f} ms")
    print(f"  cost of the limits                      {checked - bare:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
