"""Command modules; each registers its commands on pbem.app.app when imported."""
