"""Command modules; each registers its commands on pbem.cli.typer_app.app when imported."""
