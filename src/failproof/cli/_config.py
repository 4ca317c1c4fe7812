"""``failproof config``: the effective settings, and the reference of every setting."""

from __future__ import annotations

import json

import typer

from failproof.cli._app import ConfigOpt, app, settings_from

config_app = typer.Typer(help="Show the effective configuration and the list of every setting.")
app.add_typer(config_app, name="config")


@config_app.command("show")
def show(config: ConfigOpt = None) -> None:
    """The settings in effect here (flags aside): environment, config file and defaults merged."""
    settings = settings_from(config)
    typer.echo(json.dumps(settings.model_dump(mode="json"), indent=2))


@config_app.command("reference")
def reference() -> None:
    """Every setting with its TOML key, environment variable, default and meaning (Markdown)."""
    from failproof.config._reference import settings_reference

    typer.echo(settings_reference(), nl=False)
