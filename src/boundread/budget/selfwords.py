"""The words the self-cap check and its command judge share: what a session with a budget may not change
(``Protected``), the variables it may not set, and the one-line refusal (budget/selfcap.py has the model).

Standard library only: guard-check loads it for every call of a session with a budget.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH100, PTH110, PTH111, PTH119, PTH120
from __future__ import annotations

import os

#: Variables a command may not set, export or unset in a session with a budget.
PROTECTED_ENV = ("BOUNDREAD_STATE_DIR", "BOUNDREAD_LEDGER_URL", "BOUNDREAD_BUDGET_PRICES", "XDG_STATE_HOME",
                 "XDG_CONFIG_HOME")
DEPTH_ENV = "BOUNDREAD_DEPTH"
URL_ENV = "BOUNDREAD_LEDGER_URL"  # the PostgreSQL ledger's address and, often, its password
FILE_NAMES = ("budget.sqlite3", "budget.limits.json", "budget.postgres.limits.json")
USER_ACTION = ("an agent may not change its own budget: stop, and ask the user to do it from their own terminal"
               " (outside this agent)")


class Protected:
    """What a session with a budget may not change: the state folder, the seal, the user config (``roots``);
    the strings that name one of them or the budget's files (``names``, lower case: code and a word whose value
    is unknown are read for them); those and the looser ones the cheap test looks for (``triggers``: boundread,
    budget, the folders above); whether the ledger file is there (``budget recover`` is then a repair);
    whether ``BOUNDREAD_LEDGER_URL`` is set here (``url_env``: a command that prints the environment would show
    it). Only strings are made up front: the disk (``roots``' real paths, ``ledger_there``) is asked when
    needed."""

    __slots__ = ("_places", "_roots", "ledger", "names", "state", "triggers", "url_env")

    def __init__(self, state: str, ledger: str) -> None:
        from boundread.budget.ledgerurl import user_config
        from boundread.budget.sidecar import path_for, seal_for

        self.state, self.ledger = os.path.abspath(state), ledger
        self.url_env = bool(os.environ.get(URL_ENV))
        seal = seal_for(path_for(ledger))
        self._places = [os.path.normpath(p) for p in (self.state, os.path.dirname(user_config()), seal) if p]
        self._roots: tuple[str, ...] | None = None
        home = os.path.expanduser("~")
        names = {*FILE_NAMES, *(os.path.basename(seal) for seal in [seal] if seal)}
        loose = {"boundread", "budget", "xdg_", "sqlite", "limits.json"}
        for root in self._places:
            names.add(root)
            loose.add(os.path.basename(root))
            if root.startswith(home + os.sep):
                rel = root[len(home) + 1:]
                names.update({"~/" + rel, "$home/" + rel, "${home}/" + rel})
                (names if os.sep in rel else loose).add(rel)  # `.local/state/boundread`, not `.config` alone
                loose.add(os.path.dirname(rel))  # `cd ~/.local/state && rm -rf b*`
        self.names = tuple(sorted({name.lower() for name in names if len(name) >= 4}))
        self.triggers = tuple(sorted({name.lower() for name in names | loose if len(name) >= 4}))

    @property
    def roots(self) -> tuple[str, ...]:
        """The protected places, each as named and as the disk resolves it (a state folder behind a link)."""
        if self._roots is None:
            self._roots = tuple(dict.fromkeys([*self._places, *(os.path.realpath(p) for p in self._places)]))
        return self._roots

    @property
    def ledger_there(self) -> bool:
        return os.path.exists(self.ledger)


def reason(what: str, why: str, fix: str = "") -> str:
    """One line (a here-document or a script is shown with its lines joined): what was refused, why, and what
    the user (not the agent) must do."""
    what, why, fix = (" ".join(text.split()) for text in (what, why, fix))
    shown = what if len(what) <= 160 else what[:157] + "..."
    return f"`{shown}` {why} - {USER_ACTION}{': ' + fix if fix else ''}."
