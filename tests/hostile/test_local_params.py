"""``-p n_ctx=N`` for the local target takes effect (the model is loaded with it) or is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.errors import TargetError
from failproof.targets import create_target


@pytest.fixture
def model_file(tmp_path: Path) -> str:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF")  # never loaded: the target loads its model on the first call
    return str(path)


@pytest.mark.parametrize("given", ["8192", 8192, "256"], ids=["text", "number", "smallest"])
def test_n_ctx_is_how_the_model_is_loaded_not_a_request_parameter(
    model_file: str, given: object
) -> None:
    target = create_target(f"local:{model_file}", {"params": {"n_ctx": given, "temperature": 0}})
    assert target.n_ctx == int(str(given))  # type: ignore[attr-defined]
    assert "n_ctx" not in target.params  # type: ignore[attr-defined]
    assert target.identity()["n_ctx"] == int(str(given))


@pytest.mark.parametrize("given", ["big", "8192.5", "0", "99999999", "-1"])
def test_an_unusable_n_ctx_is_refused(model_file: str, given: str) -> None:
    with pytest.raises(TargetError, match="n_ctx must be"):
        create_target(f"local:{model_file}", {"params": {"n_ctx": given}})
