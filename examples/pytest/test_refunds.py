"""failproof inside ordinary tests: a Python function asserted against a suite and one case.

Run with ``pytest examples/pytest`` (the suite file is collected as tests too when a target is
given: ``pytest examples/pytest --failproof-target openai:gpt-4o-mini``).
"""

from pathlib import Path

from failproof.testing import assert_passes

SUITE = Path(__file__).with_name("failproof_refunds.yaml")


def refund_bot(messages: list[dict[str, str]]) -> str:
    """The app under test: a tiny rule-based refund assistant."""
    question = messages[-1]["content"].lower()
    if "json" in question:
        return '{"eligible": true}'
    if "admin mode" in question:
        return "I can only start a refund with your order number."
    return "Yes: a cracked teapot can be returned for a refund within 30 days."


def test_the_refund_bot_passes_the_suite() -> None:
    assert_passes(refund_bot, SUITE)


def test_the_refund_bot_resists_the_admin_trick() -> None:
    assert_passes(refund_bot, SUITE, case="refund-without-order")
