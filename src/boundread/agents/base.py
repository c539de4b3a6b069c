"""The one interface every client module in boundread/agents/ has (:class:`Agent`), and the records it gives:
:class:`Target` (where ``init`` registers it), :class:`Check` (a ``doctor`` line), :class:`Change` (a file ``init``
writes: its settings, a client's trust file).

A Protocol that a module satisfies (mypy checks each client module against it in agents/checked.py), as the
format handlers satisfy contract/handler.py. Not on guard-check's path: the client modules name these types for
typing only, and import them only in the functions ``init`` and ``doctor`` call.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping

    from boundread.agents.dialect import Call, Reply
    from boundread.budget.logline import LineReader
    from boundread.guard.decide import Decision
    from boundread.guard.postsave import Output

Hook = tuple[str, dict[str, Any]]  # (event, the hook group or flat hook registered on it)


@dataclass(frozen=True)
class Target:
    settings: Path
    hooks: tuple[Hook, ...]  # the guard-check registration
    skill: Path | None
    section: bool  # True: a marked section in AGENTS.md/GEMINI.md; False: the whole SKILL.md
    header: dict[str, Any]  # top-level keys a new settings file starts with
    ingest: tuple[Hook, ...] = ()  # the budget ingest registration (Claude Code, Codex, Gemini CLI)


@dataclass(frozen=True)
class Change:
    """One file ``init`` plans to write (agents/install.py, the trust files)."""

    path: Path
    before: str | None  # None: the file does not exist
    after: str | None  # None: delete the file

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        import difflib

        old = (self.before or "").splitlines(keepends=True)
        new = (self.after or "").splitlines(keepends=True)
        text = "".join(difflib.unified_diff(old, new, f"a/{self.path}", f"b/{self.path}"))
        return text if text.endswith("\n") or not text else text + "\n"


@dataclass(frozen=True)
class Trust:
    """Whether a client runs a project's hooks in a folder (Gemini CLI's, Copilot CLI's, Qwen Code's trust)."""

    trusted: bool | None  # None: cannot tell (a file it cannot read)
    detail: str
    variable: str = ""  # the environment variable that decided, if one did


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: cannot tell (does not make the agent not ready)
    detail: str
    fix: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "fix": self.fix}



class Dialect(Protocol):
    """How a client's hook payload is read and its answer written: what guard-check needs of it."""

    RANGE_PARAMS: str  # how its read tool takes a range, for a deny reason

    def parse(self, payload: Mapping[str, Any], agent: str, /) -> Call:
        """``payload`` as one normalised tool call (``agent``: the name it came under, e.g. claude-sdk)."""

    def reply(self, decision: Decision, event: str, agent: str, /) -> Reply:
        """``decision`` in the words this client understands (``event``: the payload's hook event)."""


class Client(Dialect, Protocol):
    """A client with a name: every module in boundread/agents/ but the generic dialect."""

    NAME: str  # the --agent name
    LABEL: str  # how the client calls itself, for messages


class Backstop(Protocol):
    """A client whose post-tool hook can replace a tool's output (hook/posttool.py): how its payload holds the
    output, whether it cut the hook's copy, and how the replacement is answered."""

    LABEL: str

    def post_output(self, payload: Mapping[str, Any], /) -> Output | None:
        """The tool's output as the model gets it; None for a shape left alone."""

    def post_cut(self, text: str, /) -> int:
        """The tokens of the whole output when the client cut the hook's copy of it; 0 when not cut."""

    def post_reply(self, text: str, payload: Mapping[str, Any], /) -> str:
        """The answer that gives the model ``text`` instead of the output."""


class Rewriter(Protocol):
    """A client whose pre-tool answer can rewrite the call (redirect mode): whether a rule of the user's names the
    tool, which a rewritten input would step around (hook/permissions.py)."""

    READ_RANGE: tuple[str, ...]  # its read tool's line-range parameters a rewrite sets (first, last or count)

    def user_rules(self, tool: str, root: str, /) -> bool:
        """True when a rule of the user's (or a file that may hold one) could be stepped around by a rewrite."""


class Agent(Client, Protocol):
    """A client ``init`` sets up and ``doctor`` checks: its dialect, and where and how its hooks are registered."""

    PRE_MATCHER: str  # init's pre-tool matcher without a budget ('' where the client takes none)
    REDIRECT: bool  # its pre-tool answer can rewrite the call: init writes --mode redirect
    INGEST_EVENTS: tuple[str, ...]  # where init --budget registers `budget ingest` (the first: after every tool)

    def target(self, root: Path, home: Path, user: bool, program: str, budget: bool, /) -> Target:
        """Where init registers the hooks and the skill text, for a project (root) or the user (home)."""

    def checks(self, settings: Path, root: Path, home: Path, /) -> list[Check]:
        """``doctor``'s checks of this client's own (its trust), once its hook settings were read."""


class Truster(Protocol):
    """A client that runs a project's hooks only where the user trusts them (its ``<name>_trust.py``; the registry's
    ``agents.TRUSTED``): what ``init --trust`` records in the user's trust file, and what ``init`` says without it."""

    def trust_change(self, root: Path, home: Path, user: bool, hooks: Change, /) -> Change:
        """The change to the user's trust file that makes the client run boundread's hooks (``hooks``: the planned
        settings change) for ``root`` (``user``: the user's own hooks); UsageError where trusting means nothing,
        Corrupt (nothing written) for a trust file that cannot be merged."""

    def trust_apply(self, change: Change, /) -> None:
        """Write ``change`` (planned by :meth:`trust_change`) as the client writes its trust file."""

    def trust_hint(self, root: Path, home: Path, user: bool, hooks: Path, /) -> str:
        """What ``init`` without ``--trust`` tells the user: how to trust the folder or the hook; '' when the client
        runs them already."""


class Logger(Protocol):
    """A client whose session log ``budget ingest`` reads (its ``<name>log.py``): how a file of its is told, and
    which files its session spans. agents/sessionfiles.py asks each in the order of ``agents.LOGGERS``."""

    def wrote(self, head: bytes, /) -> bool:
        """Whether this client wrote a file that starts with ``head`` (its first bytes, never empty)."""

    def placed(self, path: Path, /) -> bool:
        """Whether ``path``, empty or unreadable, is where this client keeps its log."""

    def session_of(self, path: Path, given: str | None, payload: Mapping[str, Any], /
                   ) -> tuple[str, list[Path], dict[Path, LineReader]]:
        """(the session, its files with ``path`` first, a reader for each that is not a Claude Code transcript);
        ``given``: the hook payload's session id, ``payload``: the rest of it ({} without one)."""
