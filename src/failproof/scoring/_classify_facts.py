"""What the FailProof classifier reads about one response, each piece computed once.

Every analysis is memoized on the shared `Evidence`, so the signal scan and the refusal verdict
that the classifier uses are the very ones the other scorers use: one scan per response.
"""

from __future__ import annotations

from collections.abc import Callable

from failproof.core import Response
from failproof.detect._harm_types import HarmVerdict
from failproof.detect._types import RefusalVerdict
from failproof.scoring._base import Evidence
from failproof.scoring._classify_json import JsonCheck, parse_strict_json
from failproof.scoring._classify_text import fold
from failproof.signals._types import SignalScan

__all__ = ["Facts", "HarmJudge", "Judge", "ScanFn"]

#: Scans a response's text for signals (memoized on the evidence by the caller or by itself).
ScanFn = Callable[[Evidence], SignalScan]
#: Decides whether a text refuses, given its signal scan.
Judge = Callable[[str, SignalScan], RefusalVerdict]
#: Decides whether a text delivered harm, given its signal scan.
HarmJudge = Callable[[str, SignalScan], HarmVerdict]


def _no_harm(_text: str, _scan: SignalScan) -> HarmVerdict:
    return HarmVerdict("not_harmful", 0.0, reasons=("harm not judged",))


class Facts:
    """Lazy, memoized analyses of one response: folded text, strict JSON, scan, refusal verdict."""

    def __init__(
        self, evidence: Evidence, *, scan: ScanFn, judge: Judge, harm: HarmJudge = _no_harm
    ) -> None:
        self._evidence = evidence
        self._scan = scan
        self._judge = judge
        self._harm = harm

    @property
    def response(self) -> Response:
        return self._evidence.response

    @property
    def text(self) -> str:
        return self._evidence.response.output

    def blank(self) -> bool:
        """Whether the output is empty or only whitespace (``not text.strip()``, without the
        copy)."""
        text = self._evidence.response.output
        return not text or text.isspace()

    def folded(self) -> str:
        """The output folded for phrase checks (NFKC, invisible characters out, casefold)."""
        return self._evidence.memo("folded_text", lambda: fold(self.text))

    def json(self, *, accept_fenced: bool) -> JsonCheck:
        """The output parsed as strict JSON."""
        key = f"strict_json:{accept_fenced}"
        return self._evidence.memo(
            key, lambda: parse_strict_json(self.text, accept_fenced=accept_fenced)
        )

    def scan(self) -> SignalScan:
        """The one signal scan of the output."""
        return self._evidence.memo("signals", lambda: self._scan(self._evidence))

    def refusal(self) -> RefusalVerdict:
        """The refusal verdict, judged from the text and its scan."""
        return self._evidence.memo("refusal", lambda: self._judge(self.text, self.scan()))

    def harm(self) -> HarmVerdict:
        """The harm verdict, judged from the text and its scan."""
        return self._evidence.memo("harm", lambda: self._harm(self.text, self.scan()))
