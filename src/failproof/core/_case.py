"""The test case: what is sent to a target and what is expected back."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from failproof.core._closed import Closed
from failproof.core._regex import re2_problem
from failproof.core._severity import Severity
from failproof.core._taxonomy import TaxonomyId
from failproof.core._tools import (
    ForbiddenCall,
    McpServer,
    ToolCall,
    ToolSpec,
    schema_refs_inside,
)
from failproof.guard._json import JsonObject

__all__ = [
    "MAX_TURNS",
    "Case",
    "Expect",
    "Message",
    "RubricExpect",
    "SafeExpectations",
    "Severity",
    "Turn",
]

#: The most scripted turns a case may have after its input.
MAX_TURNS = 50

SUITE_NAME = re.compile(r"^[a-z0-9_]+$")


class Message(Closed):
    """One chat message; an assistant's may carry tool calls, a tool's answers one of them."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str
    tool_calls: list[ToolCall] = Field(default_factory=list, description="assistant: calls.")
    tool_call_id: str | None = Field(default=None, description="tool: the call it answers.")


def _not_blank(phrases: list[str]) -> list[str]:
    for index, phrase in enumerate(phrases):
        if phrase.isascii() and phrase.strip():  # no ASCII character is a format character
            continue
        if not any(not c.isspace() and unicodedata.category(c) != "Cf" for c in phrase):
            raise ValueError(
                f"phrase [{index}] {phrase!r} is blank: it would match (or miss) every output "
                "alike; remove it or write the words to look for"
            )
    return phrases


Phrases = Annotated[list[str], AfterValidator(_not_blank)]


class RubricExpect(Closed):
    """What a good answer does, graded by the LLM judge with a versioned template.

    Written as a string (the criteria) or as a mapping with a threshold and a name.
    """

    criteria: str = Field(
        min_length=1, max_length=20_000, description="What a good answer does, for the judge."
    )
    threshold: float = Field(
        default=0.5, ge=0, le=1, description="Lowest judge score (0 to 1) that passes."
    )
    name: str | None = Field(
        default=None,
        max_length=200,
        description="The rubric's name in reports (an importer keeps the check's type here).",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        return {"criteria": value} if isinstance(value, str) else value


class Expect(Closed):
    """What the FailProof classifier checks in a response."""

    refusal: Literal["forbidden", "required", "allowed"] = Field(
        default="forbidden",
        description="forbidden: the model must answer; required: it must refuse; allowed: either.",
    )
    format: Literal["text", "json"] = Field(
        default="text", description="json: the output must parse as JSON (see json_schema)."
    )
    json_schema: dict[str, Any] | None = Field(
        default=None, description="JSON Schema the parsed output must satisfy (format: json)."
    )
    must_contain: Phrases = Field(
        default_factory=list, description="Every phrase must appear (case-insensitive)."
    )
    must_contain_any: Phrases = Field(
        default_factory=list, description="At least one phrase must appear (case-insensitive)."
    )
    must_not_contain: Phrases = Field(
        default_factory=list, description="No phrase may appear (case-insensitive)."
    )
    must_match: list[str] = Field(
        default_factory=list,
        description="Every RE2 regular expression must match somewhere in the output (linear "
        "time, no backreferences or lookaround; (?i) for case-insensitive).",
    )
    must_not_match: list[str] = Field(
        default_factory=list,
        description="No RE2 regular expression may match anywhere in the output.",
    )
    max_chars: int | None = Field(default=None, ge=0, description="Longest acceptable output.")
    max_seconds: float | None = Field(
        default=None,
        gt=0,
        allow_inf_nan=False,
        description="Longest acceptable time to the whole answer, in seconds (its latency).",
    )
    forbidden_calls: list[ForbiddenCall] = Field(
        default_factory=list,
        description="Tool calls the model must not make (any call of a tool, or one with "
        "forbidden arguments): unsafe_tool_call.",
    )
    rubric: RubricExpect | None = Field(
        default=None,
        description="What a good answer does, graded by the LLM judge (--judge): the judge's "
        "score must reach the threshold. Without a judge the case is unscored, never a pass.",
    )

    @field_validator("json_schema")
    @classmethod
    def _refs_inside(cls, schema: JsonObject | None) -> JsonObject | None:
        return None if schema is None else schema_refs_inside(schema)

    @field_validator("must_match", "must_not_match")
    @classmethod
    def _re2_patterns(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            problem = re2_problem(pattern)
            if problem:
                raise ValueError(f"{pattern!r} is not a valid RE2 pattern: {problem}")
        return patterns


class Turn(Closed):
    """One more user turn of a conversation, sent after the target answered the turn before."""

    content: str = Field(min_length=1, description="What the user says on this turn.")
    expect: Expect | None = Field(
        default=None, description="What this turn's answer is checked for (default: the case's)."
    )

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        return {"content": value} if isinstance(value, str) else value

    @field_validator("content")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a turn's content is empty; give what the user says")
        return value


class _SignalGeneration(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    must_find_signals: list[str] = Field(default_factory=list)


class _FollowupQuestions(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    forbidden_terms: list[str] = Field(default_factory=list)


class _EventSummary(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    must_contain_phrases: list[str] = Field(default_factory=list)


class SafeExpectations(BaseModel):
    """SAFE v0 expectation blocks, exactly as named in the SAFE v0 specification."""

    model_config = ConfigDict(extra="allow", frozen=True)

    signal_generation: _SignalGeneration = Field(default_factory=_SignalGeneration)
    followup_questions: _FollowupQuestions = Field(default_factory=_FollowupQuestions)
    event_summary: _EventSummary = Field(default_factory=_EventSummary)

    @property
    def must_find_signals(self) -> list[str]:
        return self.signal_generation.must_find_signals

    @property
    def forbidden_terms(self) -> list[str]:
        return self.followup_questions.forbidden_terms

    @property
    def must_contain_phrases(self) -> list[str]:
        return self.event_summary.must_contain_phrases


class Case(Closed):
    """One test: what is sent, and what is expected back."""

    id: str = Field(min_length=1, description="Unique within the suite.")
    suite: str = Field(default="default", description="Name of the suite the case belongs to.")
    category: str = Field(default="general", min_length=1, description="Threat family.")
    severity: Severity = Field(default=Severity.medium, description="low|medium|high|critical")
    task: str | None = Field(default=None, description="What the model is asked to do.")
    input: str | list[Message] = Field(
        description="One user message, or a list of {role, content} messages."
    )
    system: str | None = Field(default=None, description="System prompt, if any.")
    turns: list[Turn] = Field(
        default_factory=list,
        max_length=MAX_TURNS,
        description="Further user turns (text, or {content, expect}), sent one at a time after "
        "the target answered the one before; every turn's answer is scored.",
    )
    tools: list[ToolSpec] = Field(
        default_factory=list,
        description="Tools offered to the model (function calling) with their stub answers.",
    )
    mcp_servers: list[McpServer] = Field(
        default_factory=list,
        description="MCP servers whose tools are offered too; the runner calls the real servers "
        "(a server is 'stdio:COMMAND ARGS', a URL, or 'rogue:SCENARIO').",
    )
    max_steps: int = Field(
        default=5, ge=1, le=50, description="With tools: model calls at most (tool rounds + 1)."
    )
    failure_modes: list[str] = Field(
        default_factory=list, description="Failure modes this case probes for."
    )
    taxonomy: list[TaxonomyId] = Field(
        default_factory=list,
        description="What the case tests, as FRAMEWORK:CODE ids: owasp-llm:LLM01 ... LLM10, "
        "atlas:AML.T0051.001 (MITRE ATLAS), failproof:cyber (failproof's categories).",
    )
    expect: Expect | None = Field(default=None, description="FailProof classifier expectations.")
    archetype: str | None = Field(default=None, description="SAFE v0 grouping.")
    expectations: SafeExpectations | None = Field(
        default=None, description="SAFE v0 expectation blocks."
    )
    metadata: dict[str, Any] = Field(default_factory=dict, description="Free-form metadata.")

    @field_validator("input")
    @classmethod
    def _input_not_empty(cls, value: str | list[Message]) -> str | list[Message]:
        if isinstance(value, str):
            if not value.strip():
                raise ValueError("input is empty; give the text sent to the model")
        elif not value:
            raise ValueError("input is an empty message list; give at least one message")
        return value

    @field_validator("taxonomy")
    @classmethod
    def _unique_taxonomy(cls, ids: list[str]) -> list[str]:
        return list(dict.fromkeys(ids))

    @model_validator(mode="after")
    def _tools_or_turns(self) -> Case:
        if (self.tools or self.mcp_servers) and self.turns:
            raise ValueError("a case may have tools or turns, not both (mcp_servers are tools)")
        names = [t.name for t in self.tools]
        if len(set(names)) != len(names):
            raise ValueError("two tools have the same name")
        return self

    @property
    def key(self) -> tuple[str, str]:
        """The (suite, id) pair that identifies this case within a run."""
        return (self.suite, self.id)

    def messages(self) -> list[Message]:
        """The chat messages sent to a target: system, then task and input as the user turn."""
        out: list[Message] = []
        if self.system:
            out.append(Message(role="system", content=self.system))
        if isinstance(self.input, str):
            text = f"{self.task}\n\n{self.input}" if self.task else self.input
            out.append(Message(role="user", content=text))
            return out
        if self.task:
            out.append(Message(role="user", content=self.task))
        out.extend(self.input)
        return out

    @property
    def turn_count(self) -> int:
        """How many calls the case makes: its input, then each scripted turn."""
        return 1 + len(self.turns)

    def turn_case(self, turn: int, answers: Sequence[str]) -> Case:
        """The single call of turn ``turn`` (0 is the input), given the answers to the turns
        before it: the conversation so far, checked with the turn's expectations."""
        if turn == 0:
            return self.model_copy(update={"turns": [], "metadata": {**self.metadata, "turn": 0}})
        history = [m for m in self.messages() if m.role != "system"]
        for answer, said in zip(answers[:turn], self.turns[:turn], strict=True):
            history.append(Message(role="assistant", content=answer))
            history.append(Message(role="user", content=said.content))
        expect = self.turns[turn - 1].expect or self.expect
        update = {"task": None, "input": history, "turns": [], "expect": expect}
        return self.model_copy(update={**update, "metadata": {**self.metadata, "turn": turn}})

    def prompt_text(self) -> str:
        """All message contents joined: the text snapshot used by reports and geometry."""
        return "\n\n".join(m.content for m in self.messages())
