"""Command modules; each registers its commands on pbem.cli.app.app when imported."""
