"""Entry point. ``guard-check`` is dispatched before Typer is imported: it runs on every agent tool
call, so its path is standard library only."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["guard-check"]:
        from boundread.guard.main import run

        sys.exit(run(sys.argv[2:]))
    from boundread.cli.app import app

    app(prog_name="boundread")


if __name__ == "__main__":
    main()
