"""``budget reset``, ``recover`` and ``exec``: clear or repair the ledger, run a sub-agent one level deeper."""

from __future__ import annotations

import os
import subprocess
from typing import Annotated

import typer

from boundread.cli import complete
from boundread.cli.boundary import Command, boundary
from boundread.cli.budget.common import OneSessionOpt, budget_app, emit
from boundread.cli.options import JsonOpt
from boundread.errors import UsageError


@budget_app.command("reset", cls=Command, epilog="Examples: boundread budget reset --session demo\n\n"
                    "boundread budget reset --limits")
def reset(
    session: OneSessionOpt = None,
    limits: Annotated[bool, typer.Option("--limits", help="Also forget the scope's limits.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget what a session spent (every session without --session). Limits stay unless --limits."""

    def work() -> int:
        from boundread.budget.ledger import open_ledger
        from boundread.budget.model import Scope
        scope = Scope("session", session) if session else Scope("global")
        with open_ledger() as ledger:
            ledger.reset(scope, limits=limits)
        _forget_marks(session)
        emit("budget reset", {"scope": scope.key}, f"reset {scope.label}", as_json)
        return 0

    boundary(as_json, work)


def _forget_marks(session: str | None) -> None:
    """The cap marks this reset made stale (budget/sidecar.py): the spend they noted is forgotten."""
    from boundread.budget.ledger import ledger_path, ledger_url
    from boundread.budget.sidecar import path_for, unmark

    if not ledger_url():  # the PostgreSQL ledger keeps no marks
        unmark(path_for(str(ledger_path())), session)


@budget_app.command("recover", cls=Command, epilog="Example: boundread budget recover")
def recover_cmd(as_json: JsonOpt = False) -> None:
    """Repair a damaged, emptied or lost ledger: move it aside, salvage what reads, put every limit back."""

    def work() -> int:
        from boundread.budget.recover import recover
        from boundread.render.budget import recovery_dict, recovery_lines

        result = recover()
        emit("budget recover", recovery_dict(result), "\n".join(recovery_lines(result)), as_json)
        return 0

    boundary(as_json, work)


@budget_app.command("exec", cls=Command, context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                    epilog="Example: boundread budget exec --session demo -- claude -p 'summarise report.pdf'")
def exec_cmd(
    command: Annotated[list[str], typer.Argument(metavar="COMMAND...", help="The sub-agent command, after --.")],
    session: Annotated[str | None, typer.Option(
        "--session", autocompletion=complete.session_ids,
        help="Session id (default: $BOUNDREAD_SESSION, else 'default').")] = None,
) -> None:
    """Run a sub-agent command one level deeper (BOUNDREAD_DEPTH + 1); refuse beyond the depth limit."""

    def work() -> int:
        from boundread.budget.enforce import depth_of
        from boundread.budget.ledger import open_ledger
        from boundread.budget.model import Scope
        from boundread.budget.policy import check_depth

        depth = depth_of({}) + 1
        sid = session or os.environ.get("BOUNDREAD_SESSION") or "default"
        with open_ledger() as ledger:
            for scope in (Scope("session", sid), Scope("global")):
                error = check_depth(depth, ledger.limits(scope), f"session {sid}")
                if error is not None:
                    raise error
        env = {**os.environ, "BOUNDREAD_DEPTH": str(depth), "BOUNDREAD_SESSION": sid}
        try:
            return subprocess.call(command, env=env)
        except OSError as exc:
            raise UsageError(f"cannot run {command[0]}: {exc.strerror}", "check the command after --") from exc

    boundary(False, work)
