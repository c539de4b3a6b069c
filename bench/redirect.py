"""Redirect mode against deny mode and against no boundread: calls and input tokens until the model has the text.

    .venv/bin/python bench/redirect.py [--client claude --client codex ...] [--scenario cat-log ...]

The scripted sessions of tests/e2e/test_redirect.py, run with the real clients (the pinned npm packages in
``$BOUNDREAD_E2E_DIR``, as for the e2e suite) against the fake model server: the same first turn (a whole Read
of report.pdf or a 50 MB log, ``cat`` of them, a Read or ``cat`` of a workbook, ``unzip -p`` of a 2 MB member, a
recursive grep over a tree), then what the client's answer leads the model to do - natively (no boundread: what
an agent does without it), in deny mode (what the reason says), in redirect mode (nothing: the text is there) -
until the asked text reaches the model. Per session it prints the tool calls and the input tokens the model
would be billed for (every request's body up to that one, ~4 characters a token, a PDF sent as a file by its
pages; no caching), and whether redirect is at most both others on both (where not, by how much, beside what
``init``'s instructions add to each request; the exit status is 1 when a row is worse by more than them). A
client that is not installed is skipped, saying so.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", action="append", choices=sorted(sessions.CLIENTS),
                        help="only this client (repeatable; default: all)")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable; default: all)")
    args = parser.parse_args()
    wanted = args.client or list(sessions.CLIENTS)
    head = (f"{'client':<7} {'scenario':<10} {'calls native/deny/redirect':>27} "
            f"{'input tokens native/deny/redirect':>36}  redirect <= both")
    print(head)
    print("-" * len(head))
    worse = 0
    for name, scenario in sessions.SESSIONS:
        if name not in wanted or (args.scenario and scenario not in args.scenario):
            continue
        try:
            measured = {}
            for mode in sessions.MODES:
                with tempfile.TemporaryDirectory() as folder:
                    measured[mode] = sessions.session(Workspace(Path(folder)), name, scenario, mode)
        except pytest.skip.Exception as exc:
            print(f"{name:<7} skipped: {exc}")
            wanted.remove(name)
            continue
        native, deny, redirect = (measured[mode] for mode in sessions.MODES)
        fine = all(redirect.tool_calls <= other.tool_calls and redirect.input_tokens <= other.input_tokens
                   for other in (native, deny))
        said = "yes"
        if not fine:  # what init adds to every request (the skill's instructions): the first requests differ by it
            instructions = redirect.first_tokens - native.first_tokens
            excess = redirect.input_tokens - native.input_tokens
            said = f"NO: +{excess:,} tokens; init's instructions are {instructions:,} a request"
            worse += excess > redirect.requests * instructions or redirect.tool_calls > native.tool_calls
        print(f"{name:<7} {scenario:<10} {native.tool_calls:>13} / {deny.tool_calls} / {redirect.tool_calls:<6} "
              f"{native.input_tokens:>17,} / {deny.input_tokens:,} / {redirect.input_tokens:<9,}  {said}")
    return 1 if worse else 0


if __name__ == "__main__":
    raise SystemExit(main())
