"""The report formats every ruleset has, in the order they are listed (pbem.views.report
renders them). Apart from the renderer, so that checking a command's `--format` loads no
rendering code (start-up, bench/README.md)."""

FORMATS = ("text", "markdown", "bbcode", "bgg")  # listed first, in this order; others by name
