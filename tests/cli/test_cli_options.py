"""An option that means the same in several commands is declared once, so every command says
the same of it; the options whose meaning is each command's own are listed here, with why."""

from __future__ import annotations

from collections import defaultdict

import pytest
import typer

from failproof.cli._commands import application

#: Options that mean something else from one command to the next, each declared in its command.
OWN_MEANING = {
    # another list of formats, another default place, another kind of file written
    "--format": "formats",
    "--output": "formats",
    # a run's, an attack's or another command's own thing of the same name
    "--resume": "run or attack",
    "--replay": "attack or generation record",
    "--seed": "sample, attack, mutations or permutation test",
    "--name": "imported or generated suite",
    "--limit": "cases, runs, scans or listed rows",
    "--port": "report viewer or rogue server",
    "--suite": "score's suites or the project file's",
    "--severity": "a filter or the imported cases' severity",
    "--config": "failproof's settings or SAFE's",
    "--fail-under": "the run score or SAFE's pass rate",
    "--judge": "the refusal judge, SAFE's AH judge or the project file's",
    "--target": "one target, the demo's local model or the project file's list",
    "--timeout": "per request, per local answer, or per MCP server",
    "--header": "the target's HTTP headers or an MCP server's",
    "--force": "failproof.toml (init) or the --output file (generate, import)",
    # attack: the attacker shares the target's limits, and a case is the unit of work
    "--rpm": "attack",
    "--tpm": "attack",
    "--concurrency": "attack",
    # run --strategy: attack's options, qualified by --strategy
    "--attacker": "run --strategy",
    "--strategy": "run --strategy",
    "--budget": "run --strategy",
}


def _helps_by_option() -> dict[str, set[str]]:
    helps: dict[str, set[str]] = defaultdict(set)

    def walk(command: object) -> None:
        for sub in getattr(command, "commands", {}).values():
            walk(sub)
        for param in getattr(command, "params", []):
            if param.param_type_name == "option" and param.opts[0] != "--help":
                helps[param.opts[0]].add(param.help or "")

    walk(typer.main.get_command(application()))
    return helps


def test_an_option_shared_by_commands_is_described_alike_unless_its_meaning_is_its_own() -> None:
    differing = {flag for flag, helps in _helps_by_option().items() if len(helps) > 1}
    assert differing == set(OWN_MEANING), (
        "declare an option several commands share once (failproof.cli._app, _target_options, "
        "_judge, _select), or list it in OWN_MEANING with why"
    )


@pytest.mark.parametrize(
    ("flag", "text"),
    [
        pytest.param("--judge-base-url", "OpenAI-compatible server of the judge.", id="server"),
        pytest.param(
            "--attacker-api-key-env",
            "Environment variable holding the attacker's key (default OPENAI_API_KEY).",
            id="key",
        ),
        pytest.param(
            "--generator-param",
            "Generator parameter key=value (JSON values); repeatable.",
            id="param",
        ),
    ],
)
def test_another_model_gets_the_targets_options_under_its_role(flag: str, text: str) -> None:
    assert _helps_by_option()[flag] == {text}
