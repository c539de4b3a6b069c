"""The ``init``, ``doctor`` and ``guard-check`` commands. Typer lives here only: the hook path never imports it."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated

import typer

from boundread.cli.boundary import Command, boundary
from boundread.errors import BoundreadError, ExitCode, UsageError
from boundread.hook.options import DESCRIPTION, EXAMPLES, OPTIONS, Option


def register(app: typer.Typer) -> None:
    """Add `init`, `doctor` and `guard-check` to the app."""
    app.command("init", cls=Command, short_help=_first_sentence(init),
                epilog="Examples: boundread init\n\nboundread init --agent gemini --dry-run\n\n"
                       "boundread init --budget && boundread budget set --project --max-usd 5\n\n"
                       "boundread init --uninstall")(init)
    app.command("doctor", cls=Command, short_help=_first_sentence(doctor),
                epilog="Examples: boundread doctor\n\nboundread doctor --agent claude --agent codex\n\n"
                       "boundread doctor --user --json")(doctor)
    app.command("guard-check", cls=Command, short_help=_first_sentence(guard_check),
                epilog="Examples: " + "\n\n".join(EXAMPLES))(guard_check)


def _first_sentence(command: object) -> str:
    """The main help's line for a command: its docstring's first sentence, never cut mid-sentence."""
    doc = " ".join((getattr(command, "__doc__", None) or "").split())
    end = doc.find(". ")
    return doc if end < 0 else doc[: end + 1]


def _agents(incomplete: str, *more: str) -> list[str]:
    from boundread.agents.install import AGENTS

    return [name for name in (*AGENTS, *more) if name.startswith(incomplete)]


def init(
    agent: Annotated[str, typer.Option("--agent", metavar="NAME", autocompletion=lambda incomplete: _agents(incomplete),
                                       help="claude, codex, gemini, cursor, copilot, qwen or opencode.")] = "claude",
    user: Annotated[bool, typer.Option("--user", help="Install for the user (~/...) instead of this project.")]
    = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the changes as a diff; write nothing.")] = False,
    uninstall: Annotated[bool, typer.Option("--uninstall", help="Remove only what init added (with or without "
                                             "--budget: the ingest hooks go too).")] = False,
    budget: Annotated[bool, typer.Option("--budget", help="Also run `boundread budget ingest` after every tool "
                                         "call, on each prompt and when the agent stops (Claude Code, Codex, Gemini "
                                         "CLI, Copilot CLI), so token and cost limits see what the session spent and "
                                         "a cap ends the session, and guard every tool, so a cap stops any call.")]
    = False,
    directory: Annotated[Path | None, typer.Option("--dir", metavar="DIR", help="The project folder (default: here).")]
    = None,
    trust: Annotated[bool, typer.Option("--trust", help="Codex: also record in ~/.codex/config.toml that you trust "
                                        "this folder and boundread's hook (Codex skips an untrusted hook). Gemini: "
                                        "record in ~/.gemini/trustedFolders.json that you trust this folder "
                                        "(Gemini runs no hook in an untrusted one). Copilot: record it in "
                                        "~/.copilot/config.json (Copilot skips a project's hooks in an untrusted "
                                        "folder). Qwen Code: record it in ~/.qwen/trustedFolders.json (with its "
                                        "folder trust on, Qwen loads no project settings in an untrusted folder).")]
    = False,
    mcp: Annotated[bool, typer.Option("--mcp", help="Also register `boundread mcp` as an MCP server: .mcp.json "
                                      "(Claude Code; --user: ~/.claude.json), .codex/config.toml (Codex), "
                                      ".gemini/settings.json (Gemini CLI) or .cursor/mcp.json (Cursor).")]
    = False,
) -> None:
    """Install the guard-check hook and the big-file reading protocol (skill) for an agent; --budget also records
    what a session spends and ends it at a cap.

    The hooks call `boundread` when this shell's PATH finds this installation, else its absolute path (a hook
    whose command is not found lets every read through). Check the result with `boundread doctor`."""
    from boundread import agents
    from boundread.agents import install, install_mcp, locate

    program = locate.program()
    root = (directory or Path.cwd()).absolute()
    truster = agents.truster_of(agent) if agent in agents.TRUSTED else None
    try:
        if trust and (truster is None or uninstall):
            raise UsageError(f"--trust is for {' and '.join(f'`init --agent {name}`' for name in agents.TRUSTED)}",
                             "drop --trust: the other agents run hooks from their settings without a trust step")
        changes = install.plan(agent, directory, user=user, uninstall=uninstall, budget=budget, program=program)
        if mcp or uninstall:  # uninstall removes our server, if there; one change per file (Gemini's settings)
            changes = install_mcp.with_mcp(changes, agent, directory, user=user, uninstall=uninstall, program=program)
        # every change planned before any is written: a trust file init cannot merge leaves the settings as they were
        trusted = truster.trust_change(root, Path.home(), user, changes[0]) if trust and truster else None
        if not dry_run:
            install.apply(changes)
            if trusted is not None and truster is not None:
                if any(change.path == trusted.path for change in changes):  # just written (Codex's --user MCP
                    trusted = truster.trust_change(root, Path.home(), user, changes[0])  # table): trust on top of it
                truster.trust_apply(trusted)
        changes += [trusted] if trusted is not None else []
    except BoundreadError as exc:
        typer.echo(f"boundread: error: {exc}", err=True)
        raise typer.Exit(int(exc.exit_code)) from None
    except OSError as exc:
        typer.echo(f"boundread: error: {exc} - check the folder's permissions", err=True)
        raise typer.Exit(int(ExitCode.NOT_FOUND)) from None
    for change in changes:
        if dry_run:
            typer.echo(change.diff() if change.changed else f"unchanged: {change.path}")
        elif not change.changed:
            typer.echo(f"unchanged: {change.path}")
        else:
            typer.echo(f"{'removed' if change.after is None else 'wrote'}: {change.path}")
    if program.note and not uninstall:
        typer.echo(f"note: {program.note}")
    hint = truster.trust_hint(root, Path.home(), user, changes[0].path) if truster and not (uninstall or trust) \
        else ""
    if hint:
        typer.echo(f"{agent}: {hint}")
    if budget and not uninstall and not dry_run:
        typer.echo("budget: usage is now recorded; set limits with `boundread budget set --project --max-usd X"
                   " --max-tokens N`, see them with `boundread budget status`.")


def doctor(
    agents: Annotated[list[str] | None, typer.Option("--agent", metavar="NAME",
                                                        autocompletion=lambda incomplete: _agents(incomplete, "all"),
                                                        help="Check this agent (repeatable): claude, codex, "
                                                        "gemini, cursor, copilot, qwen, opencode, or all (default: "
                                                        "every agent with settings or a boundread hook here).")] = None,
    directory: Annotated[Path | None, typer.Option("--dir", metavar="DIR",
                                                   help="The project folder (default: here).")] = None,
    user: Annotated[bool, typer.Option("--user", help="Check the user's settings (~/...) instead of the "
                                         "project's.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help='Print {"schema": 1, "command": "doctor", "agents": '
                                            '[{"agent", "ready", "checks": [{"name", "ok", "detail", "fix"}]}], '
                                            '"settings": [{"key", "value", "from"}], "notes": [...]}: "from" is the '
                                            'file (or defaults, env) that set each guard setting.')]
    = False,
) -> None:
    """Check that each agent really runs the guard: its settings file, the hook on each event, the command in it
    (found on this PATH, which the agent inherits from the shell that starts it; runs; same version), the skill,
    the budget hooks, Codex's hook trust, Gemini's folder trust. One line per check, each problem with its fix.

    Exit status: 0 when every check is ready, 2 when something is not."""
    from boundread import render
    from boundread.agents import doctor as checkup

    def work() -> int:
        report = checkup.diagnose(agents, directory, user=user)
        if as_json:
            render.print_json("doctor", report.as_dict())
        else:
            for line in checkup.lines(report):
                typer.echo(line)
        return int(ExitCode.OK) if report.ready else int(ExitCode.USAGE)

    boundary(as_json, work)


def guard_check(**given: str | bool | None) -> None:
    """The options Typer parsed, handed back as argv to the hook's own parser (hook/main.py), so both paths run
    the same code; the help text is hook/options.py's DESCRIPTION (set below with the signature)."""
    from boundread.hook.main import run

    argv: list[str] = []
    for option in OPTIONS:
        value = given.get(option.dest)
        if option.switch and value:
            argv.append(option.flag)
        elif not option.switch and value is not None:
            argv += [option.flag, str(value)]
    raise typer.Exit(run(argv))


def _typer_option(option: Option) -> inspect.Parameter:
    """One hook/options.py record as the keyword parameter Typer reads: its help, value name and completion."""
    choices = option.choices
    complete = None if choices is None else (
        lambda incomplete: [word for word in choices() if word.startswith(incomplete)])
    info = typer.Option(option.flag, metavar=option.metavar, help=option.help, autocompletion=complete)
    kind = bool if option.switch else str | None
    return inspect.Parameter(option.dest, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[kind, info],
                             default=False if option.switch else None)


# The options are hook/options.py's, which the hook path parses with argparse, without Typer: Typer reads the
# command's signature, so the signature is built from that one declaration.
_SIGNATURE = inspect.Signature([_typer_option(option) for option in OPTIONS])
guard_check.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
guard_check.__annotations__ = {param.name: param.annotation for param in _SIGNATURE.parameters.values()}
guard_check.__doc__ = DESCRIPTION
