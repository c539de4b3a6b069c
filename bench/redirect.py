"""Redirect mode against deny mode: turns and tokens until the model has the first part of a file.

    .venv/bin/python bench/redirect.py [--client claude --client codex ...]

The scripted sessions of tests/e2e/test_redirect.py, run with the real clients (the pinned npm packages in
``$BOUNDREAD_E2E_DIR``, as for the e2e suite) against the fake model server: the same first turn (a whole
Read of report.pdf or huge.log, ``cat report.pdf``, ``cat huge.log``), then in deny mode what the deny reason
says, until the first part's text reaches the model. Per session it prints the tool calls, the input the
model would be billed for (every request's body up to that one, chars / 4 as tokens, no caching) and the
tool-result overhead on the way (deny reasons, "wrote ..." lines), with the deny / redirect ratios. A client
that is not installed is skipped, saying so.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest
from tests.e2e import test_redirect as sessions
from tests.e2e.conftest import Workspace


def tokens(chars: int) -> int:
    return -(-chars // 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", action="append", choices=sorted(sessions.CLIENTS),
                        help="only this client (repeatable; default: all)")
    wanted = parser.parse_args().client or list(sessions.CLIENTS)
    head = f"{'client':<7} {'session':<9} {'calls deny/redir':>17} {'input tokens deny/redir':>26} " \
           f"{'ratio':>6} {'overhead tokens deny/redir':>27}"
    print(head)
    print("-" * len(head))
    for name, scenario in sessions.SESSIONS:
        if name not in wanted:
            continue
        try:
            with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
                deny = sessions.session(Workspace(Path(one)), name, scenario, "deny")
                redirect = sessions.session(Workspace(Path(two)), name, scenario, "redirect")
        except pytest.skip.Exception as exc:
            print(f"{name:<7} skipped: {exc}")
            wanted.remove(name)
            continue
        print(f"{name:<7} {scenario:<9} {deny.tool_calls:>8} / {redirect.tool_calls:<6} "
              f"{tokens(deny.input_chars):>12,} / {tokens(redirect.input_chars):<11,} "
              f"{deny.input_chars / redirect.input_chars:>5.2f}x "
              f"{tokens(deny.overhead_chars):>13,} / {tokens(redirect.overhead_chars):<11,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
