"""Entry point. What can answer without Typer does so before Typer is imported:

- ``guard-check`` and the bare ``budget ingest`` hook run on every agent tool call, so their start-up is what
  every call pays;
- ``--version`` is one line;
- ``info``, ``extract``, ``pages``, ``sheets``, ``list-zip`` and the stdio ``mcp`` server, with options the
  fast parser is sure of, run without Typer (cli/fast.py: Typer and click cost ~40 ms, four times Python's own start);
- any other command builds only its own Typer command, not all of them (Typer converts every registered
  function's signature on start-up: ~25 ms for the whole app, ~5 ms for one).
"""

from __future__ import annotations

import os
import sys

COMPLETE_VAR = "_BOUNDREAD_COMPLETE"  # as cli/__init__.py: shell completion needs Typer
FAST = (["info"], ["extract"], ["pages"], ["sheets"], ["list-zip"], ["mcp"])  # the commands cli/fast.py may run
#: guard-check's youngest-generation threshold (Python's is 700 allocations): importing the guard's ~50 modules ran
#: the cyclic collector 7 times on a `for` loop, for nothing it could free - 4% of the call's instructions
#: (callgrind: 82.7 -> 79.3 million). Still a bound: a check that makes garbage cycles collects them every 10,000.
HOOK_GC_THRESHOLD = 10_000


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["guard-check"] and not {"-h", "--help"} & set(argv[1:]):  # help: Typer's, as the others
        import gc

        gc.set_threshold(HOOK_GC_THRESHOLD, *gc.get_threshold()[1:])
        from boundread.hook.main import finish, run

        finish(run(argv[1:]))
    if argv == ["budget", "ingest"]:  # the PostToolUse hook `init --budget` registers: no Typer either
        from boundread.hook.ingest import main as ingest_hook

        sys.exit(ingest_hook())
    if argv == ["--version"]:  # what Typer's eager --version option prints
        from boundread import __version__

        sys.stdout.write(f"boundread {__version__}\n")
        sys.exit(0)
    if argv[:1] in FAST and COMPLETE_VAR not in os.environ:  # no Typer: cli/fast.py
        from boundread.cli.fast import dispatch, end

        code = dispatch(argv)
        if code is not None:
            end(argv[0], code)  # without the interpreter's teardown, when nothing needs it
    from boundread.cli import only

    only(argv[0] if argv else None)(prog_name="boundread")


if __name__ == "__main__":
    main()
