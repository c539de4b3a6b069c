"""guard-check's options, declared once.

Two parsers read this table: argparse on the hook path (guard/main.py builds it only when the argv is not the
usual hook argv, so no Typer and no argparse on an agent's tool call) and Typer for `boundread guard-check --help`,
the man page and shell completion (cli/guard.py builds its command's signature from it). They drifted while each
had its own list: `--mode`, which every hook `init` writes passes, was missing from the help (issue 20).

Standard library only, and nothing imported at all: guard/main.py imports this module on every tool call.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

PROG = "boundread guard-check"
DESCRIPTION = ("Pre-tool hook: read one hook payload (JSON) on stdin, deny whole-file reads of big or binary "
               "files (PDFs, Office files, archives, binaries, big text) and say which boundread command to run "
               "instead. The answer is in the sending agent's format.")
EXAMPLES = ("boundread guard-check < payload.json", "boundread guard-check --command 'cat report.pdf' --json",
            "boundread guard-check --explain report.pdf")
MODES = ("deny", "redirect")


def _agents() -> tuple[str, ...]:
    """The dialects guard-check answers in (read when a parser is built, not when this module is imported)."""
    from boundread.agents import AGENTS

    return tuple(AGENTS)


class Option:
    """One option: ``metavar`` None is a switch (present or not); ``choices`` a function, so the dialect list is
    read from its owner when a parser is built."""

    __slots__ = ("choices", "dest", "flag", "help", "metavar")

    def __init__(self, flag: str, dest: str, metavar: str | None, help: str,
                 choices: Callable[[], tuple[str, ...]] | None = None) -> None:
        self.flag, self.dest, self.metavar, self.help, self.choices = flag, dest, metavar, help, choices

    @property
    def switch(self) -> bool:
        """True for a flag that takes no value (``--json``)."""
        return self.metavar is None


OPTIONS: tuple[Option, ...] = (
    Option("--agent", "agent", "NAME", "Answer in this agent's format (default: detected from the payload).",
           _agents),
    Option("--path", "path", "FILE", "Check a read of FILE (no payload): exit 0 allow, 2 deny."),
    Option("--command", "command", "CMD", "Check the shell command CMD (no payload)."),
    Option("--json", "json", None, 'Print {"decision", "reason", "kind", "rule"} on stdout.'),
    Option("--explain", "explain", "FILE", "Print the decision for FILE and the rule that made it."),
    Option("--config", "config", "PATH", "Read the guard settings from this TOML file only."),
    Option("--mode", "mode", "MODE", "What a refused whole read becomes when the config sets no mode: deny (the "
           "default), or redirect (a bounded read instead, where the agent takes a rewrite).", lambda: MODES),
)
DESTS = tuple(option.dest for option in OPTIONS)
