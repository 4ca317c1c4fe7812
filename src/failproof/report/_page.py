"""Self-contained, locked-down HTML pages: jinja2 with autoescape, inlined assets, a strict CSP.

Every page failproof draws (the report, and the pages of ``failproof view``) goes through
`render_page`: CSS and JS are inlined from the package's ``templates/`` folder and allowed by their
SHA-256 hash in a ``Content-Security-Policy`` meta tag whose default is ``'none'``, so the page can
run only its own script, load nothing from the network, and show images only from ``data:`` URLs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from failproof.render._numbers import human_size
from failproof.render._page import content_security_policy

if TYPE_CHECKING:
    import jinja2

__all__ = ["SIZE_MARK", "asset", "content_security_policy", "environment", "render_page"]

#: Where a page states its own size; no escaped data can produce this text.
SIZE_MARK = "<!--fp:size-->"
_PACKAGE = "failproof.report"


@cache
def asset(name: str) -> str:
    """A CSS or JS file of ``failproof/report/templates``."""
    return (files(_PACKAGE) / "templates" / name).read_text(encoding="utf-8")


@cache
def environment(*packages: str) -> jinja2.Environment:
    """Templates of ``failproof.report`` and of ``packages``; every value autoescaped."""
    import jinja2  # imported on first use: `import failproof` stays light

    loaders = [jinja2.PackageLoader(p, "templates") for p in (*packages, _PACKAGE)]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["size"] = human_size
    return env


def render_page(
    template: str,
    context: Mapping[str, Any],
    *,
    scripts: Sequence[str] = (),
    packages: Sequence[str] = (),
    form_action: str = "'none'",
    own_scripts: bool = False,
) -> str:
    """Render ``template`` with the shared stylesheet, the named ``scripts`` and their policy.

    ``own_scripts`` also lets the page load scripts from its own origin (a paged report's page
    files beside it); nothing from the network either way.
    """
    css = asset("report.css")
    code = [asset(name) for name in scripts]
    csp = content_security_policy([css], code, form_action=form_action)
    if own_scripts:
        csp = csp.replace("script-src ", "script-src 'self' ", 1)
    page = (
        environment(*packages)
        .get_template(template)
        .render(**context, css=Markup(css), scripts=[Markup(c) for c in code], csp=csp)
    )
    return _with_size(_valid_unicode(page))


def _valid_unicode(text: str) -> str:
    """Lone surrogates (possible in decoded model output) cannot be written as UTF-8."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _with_size(page: str) -> str:
    """Replace `SIZE_MARK` by the page's size in bytes (stable once formatted)."""
    if SIZE_MARK not in page:
        return page
    size = len(page.encode("utf-8"))
    for _ in range(3):
        text = page.replace(SIZE_MARK, human_size(size), 1)
        new_size = len(text.encode("utf-8"))
        if human_size(new_size) == human_size(size):
            return text
        size = new_size
    return text
