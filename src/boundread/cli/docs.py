"""Generate the shell completions and the man page from the live Typer app.

    python -m boundread.cli.docs            write completions/ and man/boundread.1
    python -m boundread.cli.docs --check    exit 1, naming the files that differ from the app

Deterministic: the same app and docs/reference.md give the same bytes (no dates; boundread's own version only).
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from boundread import __version__
from boundread.errors import ExitCode

PROG = "boundread"
COMPLETE_VAR = "_BOUNDREAD_COMPLETE"
COMPLETIONS = {"bash": "completions/boundread.bash", "zsh": "completions/_boundread",
               "fish": "completions/boundread.fish"}
MAN = "man/boundread.1"

ENVIRONMENT = (
    ("BOUNDREAD_OUT_DIR", "Folder for extracted text when `-o` is not given (default `./boundread-out`)."),
    ("BOUNDREAD_STATE_DIR", "Folder of the budget ledger `budget.sqlite3` (default `$XDG_STATE_HOME/boundread`)."),
    ("BOUNDREAD_LEDGER_URL", "`postgresql://user:pass@host:port/db`: the budget ledger lives in that PostgreSQL "
     "database, shared by every machine that points at it (needs `boundread[postgres]`); unset or empty, the "
     "SQLite file. Else `ledger_url` under `[budget]` in the user config file."),
    ("BOUNDREAD_DEPTH", "Sub-agent depth, compared with `--max-depth`; `budget exec` runs its command with one more."),
    ("BOUNDREAD_SESSION", "Set by `budget exec` for its command; its default `--session`."),
    ("BOUNDREAD_BUDGET_PRICES", 'Per-million-token prices as JSON, e.g. `{"my-model": {"input": 3, "output": 15}}`; '
     'a `"default"` entry prices unknown models. Wins over `[budget.prices]` in the user config.'),
    ("BOUNDREAD_CODEX_INTERRUPT", "`0` keeps the budget from interrupting a Codex turn (SIGINT, as Ctrl-C) when it "
     "ends a Codex session at a cap: Codex 0.171 ignores a hook's `continue: false` mid-turn."),
    ("NO_COLOR", "When set, no colours in the human output."),
    ("NO_PROGRESS", "When set, no progress line on a terminal's stderr during long extractions."),
    ("XDG_CONFIG_HOME", "User guard settings are read from `$XDG_CONFIG_HOME/boundread/config.toml` "
     "(default `~/.config`)."),
    ("XDG_STATE_HOME", "The ledger is `$XDG_STATE_HOME/boundread/budget.sqlite3` without `BOUNDREAD_STATE_DIR` "
     "(default `~/.local/state`)."),
)
GUARD_SETTINGS = {
    "text_max_bytes": "text above this size needs a bounded read (a line range)",
    "line_cap": "a read of at most this many lines counts as bounded",
    "pdf_page_cap": "a PDF read of at most this many pages is allowed",
    "image_max_bytes": "images above this size are denied anywhere",
    "attachment_dirs": "images in these folders are denied (already seen as attachments)",
    "extract_max_bytes": "unpacking a bigger archive (unzip, 7z x, tar -x) is denied",
    "extract_max_entries": "unpacking an archive with more entries is denied",
    "deny_kinds": "kinds whose whole read is denied",
    "allow": "globs of paths that are always allowed",
    "on_error": "allow or deny: the answer when a call cannot be checked",
    "mode": "deny or redirect: a refused read is denied with the commands to run, or run as its bounded "
            "extraction; unset, the hook command's --mode decides (init writes redirect), else deny",
}
GUARD_ENV = ("Overrides one guard setting (sizes like 256KB or 5MB, lists comma-separated). The settings, also the "
             "keys of the `[guard]` table in the config files below:")
DESCRIPTION = (
    "Inspect first (`info`), then extract a bounded slice to a file (`extract`, `pages`, `sheets`), then read the "
    "slice in parts; `list-zip` shows what an archive holds without unpacking it. Text goes to `./boundread-out/`, "
    "the summary says what was cut and ends with the exact command that continues (`next`). With `--json` every "
    "command prints one JSON object with `\"schema\": 1`.",
    "`guard-check` is a pre-tool hook for coding agents that denies whole-file reads of big or binary files and "
    "names the bounded command to run instead; `init` installs it and a reading protocol (skill) for Claude Code, "
    "Codex CLI, Gemini CLI, Cursor or GitHub Copilot CLI. `budget` caps runaway agents by depth, tokens, cost in "
    "USD and repeated or forbidden tool calls.",
)
FILES = (
    ("./boundread-out/", "Extracted text (with its own `.gitignore`); see `-o` and `BOUNDREAD_OUT_DIR`."),
    ("./boundread-demo/", "The sample files `boundread demo` writes (`--dir` elsewhere)."),
    ("pyproject.toml", "`[tool.boundread.guard]`: guard settings, from the nearest one upwards from the hook's "
     "working directory. Model prices are never read from a project (the agent can write it): see the user config."),
    (".boundread.toml", "`[guard]`: guard settings, found like `pyproject.toml` (first in the same folder)."),
    ("$XDG_CONFIG_HOME/boundread/config.toml", "User settings: `[guard]` (project files and `BOUNDREAD_GUARD_*` "
     "variables win over them), `ledger_url` under `[budget]` (the fleet ledger) and `[budget.prices]` (model "
     "prices per million tokens), both never read from a project."),
    ("$BOUNDREAD_STATE_DIR/budget.sqlite3", "The budget ledger (SQLite, safe for parallel hooks); "
     "`$XDG_STATE_HOME/boundread/budget.sqlite3` without `BOUNDREAD_STATE_DIR`."),
    ("$BOUNDREAD_STATE_DIR/../.<folder>-budget.limits.json", "The sealed copy of the budget's limits, beside the "
     "state folder (e.g. `~/.local/state/.boundread-budget.limits.json`): deleting the state folder forgets no "
     "limit."),
    ("$BOUNDREAD_STATE_DIR/budget.postgres.limits.json", "With a PostgreSQL ledger: the limits this machine last "
     "read, which guard-check still enforces while the server cannot be reached."),
    (".claude/, .codex/, .gemini/, .cursor/, .github/hooks/, AGENTS.md, GEMINI.md",
     "Where `boundread init` registers the hook and the skill for each agent (`--dry-run` shows the change)."),
)
SEE_ALSO = (r"\fBpdftotext\fR(1), \fBunzip\fR(1), \fB7z\fR(1), \fBtar\fR(1); "
            "README.md and docs/ in the source distribution.")


def cli() -> Any:
    """The click command behind the live Typer app."""
    from boundread.cli.app import app

    return typer.main.get_command(app)


def walk(command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(words after `boundread`, command) for the app and every visible command and subcommand, in help order."""
    root = typer.Context(command, info_name=PROG)

    def visit(cmd: Any, words: tuple[str, ...], ctx: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
        yield words, cmd
        for name in cmd.list_commands(ctx) if hasattr(cmd, "list_commands") else ():
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from visit(sub, (*words, name), typer.Context(sub, info_name=name, parent=ctx))

    yield from visit(command, (), root)


def examples(epilog: str | None) -> list[str]:
    """The example command lines of an epilog: 'Example(s): A' then one more per paragraph."""
    text = re.sub(r"^\s*Examples?:\s*", "", epilog or "")
    return [part.strip() for part in re.split(r"\n\s*\n", text) if part.strip()]


def completion(shell: str) -> str:
    """The completion script Typer's class for ``shell`` would source (``_BOUNDREAD_COMPLETE=source_<shell>``)."""
    from typer._click.shell_completion import get_completion_class  # Typer's vendored click
    from typer._completion_classes import completion_init

    completion_init()  # registers Typer's Bash/Zsh/FishComplete, as `boundread --show-completion` does
    comp_cls = get_completion_class(shell)
    if comp_cls is None:
        raise ValueError(f"Typer has no completion class for {shell}")
    # stripped like Typer's own installer: zsh needs `#compdef` on the first line
    return str(comp_cls(cli(), {}, PROG, COMPLETE_VAR).source()).strip() + "\n"


def _esc(text: str) -> str:
    out = text.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in out)
    out = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", out)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in out.split("\n"))


def _metavar(param: Any) -> str:
    if param.metavar:
        return str(param.metavar)
    # click type names ("integer", "int range", "float range", "path"); typer 0.29 options have no .type
    name = str(getattr(getattr(param, "type", None), "name", "")).lower()
    for prefix, shown in (("int", "INTEGER"), ("float", "NUMBER"), ("path", "PATH"), ("file", "PATH")):
        if name.startswith(prefix):
            return shown
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    for kind in getattr(annotation, "__args__", None) or (annotation,):
        if kind in (int, float, Path):
            return {int: "INTEGER", float: "NUMBER", Path: "PATH"}[kind]
    return "TEXT"


def _argument(param: Any) -> str:
    if param.metavar:
        return str(param.metavar)
    name = str(param.name).upper() + ("..." if param.nargs == -1 else "")
    return name if param.required else f"[{name}]"


def _default(param: Any) -> str:
    value, bits = param.default, []
    if value not in (None, (), []) and not getattr(param, "is_flag", False) and not callable(value):
        bits.append(f"Default: {value:g}" if isinstance(value, float) else f"Default: {value}")
    low = getattr(param, "min", None)
    low = getattr(getattr(param, "type", None), "min", None) if low is None else low
    if low is not None:
        bits.append(f"{'m' if bits else 'M'}inimum: {low}")
    return f" {'; '.join(bits)}." if bits else ""


def _usage(words: tuple[str, ...], cmd: Any) -> str:
    args = [_argument(p) for p in cmd.params if p.param_type_name == "argument" and not getattr(p, "hidden", False)]
    return " ".join((PROG, *words, "[OPTIONS]", *(["COMMAND [ARGS]..."] if hasattr(cmd, "list_commands") else args)))


def _command(words: tuple[str, ...], cmd: Any) -> list[str]:
    params = [p for p in cmd.params if not getattr(p, "hidden", False)]
    group = hasattr(cmd, "list_commands")
    lines = [f'.SS "{_esc(_usage(words, cmd))}"'] if words else []
    for para in re.split(r"\n\s*\n", inspect.cleandoc(cmd.help or "")):
        lines += [".PP", _esc(" ".join(para.split()))]
    if group and words:
        lines += [".PP", "Commands: " + ", ".join(
            f"\\fB{_esc(name)}\\fR" for name in cmd.list_commands(typer.Context(cmd, info_name=words[-1])))
            + "."]
    for p in params:
        if p.param_type_name == "argument":
            head = f"\\fI{_esc(_argument(p))}\\fR"
        else:
            head = ", ".join(f"\\fB{_esc(o)}\\fR" for o in (*p.opts, *p.secondary_opts))
            head += "" if getattr(p, "is_flag", False) else f" \\fI{_esc(_metavar(p))}\\fR"
        lines += [".TP", head, _esc((p.help or "") + _default(p))]
    return lines


#: where the exit codes are explained, in a table the man page takes its EXIT STATUS from
REFERENCE = "docs/reference.md"


def exit_codes(readme: str) -> list[tuple[int, str]]:
    """ExitCode's values with their meanings from docs/reference.md's "Exit codes" table; each code must be there."""
    section = readme.split("## Exit codes", 1)[-1].split("\n## ", 1)[0]
    meanings = {int(code): text.strip() for code, text in re.findall(r"^\|\s*(\d+)\s*\|(.+)\|\s*$", section, re.M)}
    missing = [str(int(code)) for code in ExitCode if int(code) not in meanings]
    if missing:
        raise ValueError(f"{REFERENCE}'s Exit codes table lacks {', '.join(missing)}")
    return [(int(code), meanings[int(code)]) for code in ExitCode]


def _guard_settings() -> list[str]:
    from boundread.guard.config import KEYS, GuardConfig, shown_size

    defaults, lines = GuardConfig(), []
    for key in KEYS:
        value = getattr(defaults, key)
        if isinstance(value, (tuple, frozenset)):
            shown = ", ".join(sorted(value) if isinstance(value, frozenset) else value) or "(none)"
        elif isinstance(value, int) and key.endswith("_bytes"):
            shown = f"{shown_size(value)} ({value:,} bytes)"  # as the guard's messages show it (decimal)
        else:
            shown = str(value) or "(unset)"
        lines += [".TP", f"\\fBBOUNDREAD_GUARD_{key.upper()}\\fR, \\fB{key}\\fR",
                  _esc(f"{GUARD_SETTINGS[key]}. Default: {shown}.")]
    return lines


def man_page(command: Any, readme: str) -> str:
    nodes = list(walk(command))
    name = command.help.split(":")[0]
    lines = [f'.TH BOUNDREAD 1 "" "{PROG} {__version__}" "User Commands"', ".SH NAME",
             f"{PROG} \\- {_esc(name[0].lower() + name[1:])}", ".SH SYNOPSIS"]
    for words, cmd in nodes:
        if words and hasattr(cmd, "list_commands"):
            continue
        usage = _usage(words, cmd).split(" ", len(words) + 1)
        lines += [".br", f"\\fB{_esc(' '.join(usage[:-1]))}\\fR {_esc(usage[-1])}"]
    body = _command((), command)
    lines += [".SH DESCRIPTION", *body[:2], *(x for para in DESCRIPTION for x in (".PP", _esc(para))),
              ".SH OPTIONS", *body[2:],
              ".PP", "Every command also takes \\fB\\-\\-help\\fR.", ".SH COMMANDS"]
    for words, cmd in nodes[1:]:
        lines += _command(words, cmd)
    lines += [".SH EXIT STATUS"]
    for code, meaning in exit_codes(readme):
        lines += [".TP", f"\\fB{code}\\fR", _esc(meaning)]
    lines += [".SH ENVIRONMENT"]
    for name, what in ENVIRONMENT:
        lines += [".TP", f"\\fB{_esc(name)}\\fR", _esc(what)]
    lines += [".TP", "\\fBBOUNDREAD_GUARD_\\fR\\fISETTING\\fR", _esc(GUARD_ENV), ".RS", *_guard_settings(), ".RE",
              ".SH FILES"]
    for name, what in FILES:
        lines += [".TP", f"\\fI{_esc(name)}\\fR", _esc(what)]
    lines += [".SH EXAMPLES"]
    for _words, cmd in nodes:
        if examples(cmd.epilog):
            lines += [".PP", ".RS 4", ".nf", *(_esc(example) for example in examples(cmd.epilog)), ".fi", ".RE"]
    lines += [".SH SEE ALSO", SEE_ALSO]
    return "\n".join(lines) + "\n"


def generate(root: Path) -> dict[str, str]:
    """Every generated file (path relative to the repo root -> text), built in memory."""
    files = {path: completion(shell) for shell, path in COMPLETIONS.items()}
    files[MAN] = man_page(cli(), (root / REFERENCE).read_text(encoding="utf-8"))
    return files


def stale(root: Path) -> list[str]:
    """'path (+A -B lines)' or 'path (missing)' for each generated file that differs from the one on disk."""
    return stale_of(generate(root), root)


def stale_of(files: dict[str, str], root: Path) -> list[str]:
    """Of ``files`` (path relative to ``root`` -> text), those that differ on disk, as :func:`stale` words them."""
    out = []
    for path, text in files.items():
        target = root / path
        old = target.read_text(encoding="utf-8") if target.is_file() else None
        if old is None:
            out.append(f"{path} (missing)")
        elif old != text:
            diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), n=0, lineterm=""))[2:]
            plus, minus = (sum(line.startswith(c) for line in diff) for c in "+-")
            out.append(f"{path} (+{plus} -{minus} lines)")
    return out


def main(argv: list[str] | None = None) -> int:
    return run_generator("python -m boundread.cli.docs", __doc__ or "", generate, argv)


def run_generator(prog: str, doc: str, generate: Any, argv: list[str] | None) -> int:
    """A generator's command line (this one's, cli/plugin.py's): write every file ``generate(root)`` makes, or with
    ``--check`` write nothing and exit 1 naming the stale ones."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file differs; write nothing")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[3],
                        help="the repository root (default: the checkout this module is in)")
    args = parser.parse_args(argv)
    files = generate(args.root)
    if args.check:
        differ = stale_of(files, args.root)
        if differ:
            print(f"out of date: {', '.join(differ)} - run {prog}", file=sys.stderr)
        return 1 if differ else 0
    for path, text in files.items():
        (args.root / path).parent.mkdir(parents=True, exist_ok=True)
        (args.root / path).write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
