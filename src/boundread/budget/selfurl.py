"""The PostgreSQL ledger's address is not the agent's to read (budget/selfcap.py has the model).

``BOUNDREAD_LEDGER_URL`` often carries the password of the role guard-check records with: an agent that reads it
can connect with ``psql`` or ``psycopg`` and ``DELETE FROM limits``, whatever the guard says about the commands
that name the budget. In a session with a budget, a command is refused when it

- expands the variable (``$BOUNDREAD_LEDGER_URL``, ``${BOUNDREAD_LEDGER_URL}``, inside ``bash -c``/``eval`` too),
  or hands it to a program by name (``printenv BOUNDREAD_LEDGER_URL``, ``declare -p ...``);
- runs code that names it (``os.environ['BOUNDREAD_LEDGER_URL']``, ``os.getenv``, ``process.env``, ``$ENV{}``);
- where the variable is set, prints the whole environment: ``env`` or ``printenv`` alone, ``export``/``declare
  -p``/``typeset -x``/``set`` without names, a ``/proc/*/environ`` file.

Its name as a plain word stays allowed (``grep -rn BOUNDREAD_LEDGER_URL src/``), and so does the user config's
``ledger_url`` line: a config that holds a password is the user's choice, readable by the agent as any file of
theirs (a hook role without UPDATE/DELETE on ``limits`` is the boundary that holds then). Code that prints the
whole environment (``print(os.environ)``) is not told apart from code that reads one variable of it.
"""

from __future__ import annotations

from boundread.budget.selfwords import URL_ENV, Protected, reason
from boundread.guard.shell.effectruns import Effects, Run
from boundread.guard.shell.launch import base, inner

_NAME = URL_ENV.lower()
_NAMERS = frozenset({"printenv", "declare", "typeset", "export", "local", "readonly"})


def reads_url(command: str, found: Effects, protected: Protected) -> str | None:
    """The refusal of a command that would read the ledger's URL, or None."""
    texts = [command, *(raw for run in found.runs for raw in run.raws)]
    lows = [text.lower().replace("'", "").replace('"', "").replace("\\", "") for text in texts]
    named = any(_NAME in low for low in lows) or any(_NAME in (value or "").lower() for _, value in found.sets)
    for text, low in zip(texts, lows, strict=True):
        if "$" + _NAME in low or "${" + _NAME in low or ("${!" in low and named):  # `v=...; echo ${!v}`
            return reason(text, "would read the ledger's address and password (BOUNDREAD_LEDGER_URL)")
    for code in found.codes:
        if _NAME in code.lower():
            return reason(code, "is code that reads the ledger's address and password (BOUNDREAD_LEDGER_URL)")
    for run in found.runs:
        name = base(run.argv[0]) if run.argv else ""
        if name in _NAMERS and URL_ENV in run.argv[1:]:
            return reason(" ".join(run.raws), "would print the ledger's address and password (BOUNDREAD_LEDGER_URL)")
    if protected.url_env:
        return _prints_environment(command, found)
    return None


def _prints_environment(command: str, found: Effects) -> str | None:
    if "/environ" in command:
        return reason(command, "would read a process's environment, which holds the ledger's address and password")
    for run in found.runs:
        if _dumps(run):
            return reason(" ".join(run.raws), "would print the environment, which holds the ledger's address and"
                          " password (BOUNDREAD_LEDGER_URL)", "`printenv NAME` for another variable")
    return None


def _dumps(run: Run) -> bool:
    """``env``/``printenv`` with no command or name, ``set`` alone, ``export`` with no name, ``declare``/
    ``typeset`` alone or with ``-p``/``-x`` and no name (``declare -f`` prints functions)."""
    if not run.argv:
        return False
    name, args = base(run.argv[0]), run.argv[1:]
    flags_only = all(arg.startswith(("-", "+")) for arg in args)
    if name == "env":
        return inner(name, args, []) == []
    if name == "printenv":
        return flags_only
    if name == "set":
        return not args
    if name == "export":
        return flags_only
    letters = "".join(arg.lstrip("-+") for arg in args)
    return name in ("declare", "typeset") and flags_only and (not args or "p" in letters or "x" in letters)
