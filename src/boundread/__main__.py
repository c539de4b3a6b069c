"""Entry point. ``guard-check`` and the bare ``budget ingest`` hook are dispatched before Typer is
imported: they run on every agent tool call, so their start-up is what every call pays."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["guard-check"] and not {"-h", "--help"} & set(sys.argv[2:]):  # help: Typer's, as the others
        from boundread.guard.main import run

        sys.exit(run(sys.argv[2:]))
    if sys.argv[1:] == ["budget", "ingest"]:  # the PostToolUse hook `init --budget` registers: no Typer either
        from boundread.budget.hookcli import main as ingest_hook

        sys.exit(ingest_hook())
    from boundread.cli.app import app

    app(prog_name="boundread")


if __name__ == "__main__":
    main()
