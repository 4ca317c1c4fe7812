"""A locked-down HTML page: its inline styles and scripts allowed by their SHA-256 hash in a
``Content-Security-Policy`` whose default is ``'none'``, so a page runs only its own code, loads
nothing from the network, and shows images only from ``data:`` URLs. Every page failproof writes
(run, attack and MCP reports, ``failproof view``) carries this policy."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence

from failproof.render._text import html_text

__all__ = ["content_security_policy", "static_page"]


def _sha256(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy(
    styles: Sequence[str], scripts: Sequence[str], *, form_action: str = "'none'"
) -> str:
    """A policy allowing exactly these inline styles and scripts, and nothing from the network."""
    script_src = " ".join(_sha256(s) for s in scripts) or "'none'"
    style_src = " ".join(_sha256(s) for s in styles) or "'none'"
    return (
        f"default-src 'none'; script-src {script_src}; style-src {style_src}; img-src data:; "
        f"base-uri 'none'; form-action {form_action}"
    )


def static_page(title: str, style: str, body: str) -> str:
    """A page without script: ``title`` (escaped here), one inline ``style``, and ``body``
    (markup whose outside text the caller escaped)."""
    policy = content_security_policy([style], [])
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{policy}\">"
        f"<title>{html_text(title)}</title><style>{style}</style></head>"
        f"<body>{body}</body></html>\n"
    )
