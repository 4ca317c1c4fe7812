"""failproof inside pytest: assert a target or a Python function against a suite or one case.

::

    from failproof.testing import assert_passes

    def test_support_bot_keeps_its_secret():
        assert_passes(my_app.answer, "suites/support_bot.yaml", case="inj-001")

The pytest plugin (installed with failproof, inert until ``--failproof-target`` is given) also
collects suite files as tests, one per case: ``pytest --failproof-target openai:gpt-4o-mini``.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.testing._check import CaseFailure, SuiteCheck, assert_passes, check

__all__ = [
    "CaseFailure",
    "SuiteCheck",
    "assert_passes",
    "check",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
