"""The command-line interface (Typer). Not imported by ``guard-check``, which is standard library only."""
