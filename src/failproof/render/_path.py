"""A path to a break: the steps from the plain request to the answer that broke the target, drawn
the same way wherever a report shows one (an attack's cheapest break, in Markdown or HTML).

Each step is what was sent and what came back, all of it outside text: Markdown shows it in code
spans, HTML escapes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from failproof.render._text import html_text, md_code, md_text

__all__ = ["PathStep", "ToolStep", "path_html", "path_markdown"]

_SHOWN = 200  # characters of each text a Markdown step shows


@dataclass(frozen=True, slots=True)
class ToolStep:
    """A tool the target called on its way to the answer."""

    step: int
    name: str
    arguments: str
    outcome: str
    server: str | None = None  # the MCP server that answered (None: the case's stub)


@dataclass(frozen=True, slots=True)
class PathStep:
    """One step: an attacker writing the next prompt, or the target answering one."""

    round: int
    attacker: bool
    output: str  # what came back: the target's answer, or the attacker's prompt
    error: str | None = None  # the target's error instead of an answer
    note: str = ""  # what the step did, in the strategy's words
    messages: tuple[tuple[str, str], ...] = ()  # (role, content) sent to the target
    tools: tuple[ToolStep, ...] = ()
    broke: bool = False
    verdict: str = ""  # the class of an answer that did not break the target


def path_markdown(steps: list[PathStep]) -> list[str]:
    """One list item per step."""
    return [_md_step(step) for step in steps]


def _md_step(step: PathStep) -> str:
    if step.attacker:
        return f"- round {step.round}, attacker wrote: {md_code(step.output, _SHOWN)}"
    sent = step.messages[-1][1] if step.messages else ""
    turns = sum(1 for role, _ in step.messages if role == "user")
    where = f" (turn {turns} of the conversation)" if turns > 1 else ""
    verdict = "**broke**" if step.broke else md_text(step.verdict)
    return (
        f"- round {step.round}, {md_text(step.note)}{where}: sent {md_code(sent, _SHOWN)}; "
        f"answer {md_code(step.output or step.error or '', _SHOWN)}; verdict {verdict}"
    )


def path_html(steps: list[PathStep]) -> str:
    """One block per step: the conversation sent, the tools called, the answer, the verdict."""
    return "".join(_html_step(step) for step in steps)


def _role(text: str) -> str:
    return f"<div class='role'>{text}</div>"


def _tool_role(tool: ToolStep) -> str:
    """``tool call · step 2``, and the MCP server that answered it."""
    where = f" · {html_text(tool.server)}" if tool.server else ""
    return f"tool call · step {tool.step + 1}{where}"


def _html_step(step: PathStep) -> str:
    if step.attacker:
        return (
            f"<div class='step attacker'>{_role(f'round {step.round} · attacker wrote')}"
            f"<pre>{html_text(step.output)}</pre></div>"
        )
    turns = "".join(
        f"{_role(html_text(role))}<pre>{html_text(content)}</pre>"
        for role, content in step.messages
        if role != "system"
    )
    tools = "".join(
        f"{_role(_tool_role(t))}<pre>{html_text(t.name)}"
        f"({html_text(t.arguments)}) → {html_text(t.outcome)}</pre>"
        for t in step.tools
    )
    verdict = "broke the target" if step.broke else step.verdict
    answer = step.output if step.error is None else f"error: {step.error}"
    return (
        f"<div class='step{' broke' if step.broke else ''}'>"
        f"{_role(f'round {step.round} · {html_text(step.note)}')}{turns}{tools}"
        f"{_role('target answered')}<pre>{html_text(answer)}</pre>"
        f"<div class='verdict'>verdict: {html_text(verdict)}</div></div>"
    )
