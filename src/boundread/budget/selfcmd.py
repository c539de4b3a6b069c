"""The self-cap judge of one shell command: does it run a budget change, touch the budget's files, or set the
variables a nested run would escape the budget with? (The model: budget/selfcap.py.)

The command's effects come from the shell guard (``guard/shell/effects.py``): every argv it runs at any depth,
the files its redirections write, the variables it sets, the code it hands interpreters. Each is judged here:

- ``boundread budget set|reset|add|ingest`` (and ``recover`` while the ledger file is missing: a deleted ledger
  is no fault for the agent to repair), whatever the spelling; a program whose name is unknown but whose words
  are ``budget <change>`` counts as boundread.
- a protected path (``Protected.roots``, or inside one) as an operand of anything but a reader (``cat``, ``ls``,
  ``grep``, ``cp`` from it...), as a copy's destination, a redirection's target; a folder that contains one, as
  the operand of a destructive program (``rm -rf ~/.local``, ``mv``, ``find -delete``, an unpack into it). The
  programs that read some words and write others are told apart in selfargs.py (``sed -i`` and ``w``, ``uniq IN
  OUT``, ``tar c``'s archive, ``sqlite3 -readonly``).
- a word whose value is not known (``$(...)``, ``$X`` from outside): its source text must not name a protected
  place; interpreter code: it must not name one, nor the budget's commands or API.
- the PostgreSQL ledger's address: not to be read (selfurl.py).
- a script it runs that is too big to read whole, or that the walk could not follow to its end: refused.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH111, PTH112, PTH118, PTH119, PTH120
from __future__ import annotations

import os

from boundread.budget import selfargs
from boundread.budget.selfwords import DEPTH_ENV, Protected
from boundread.guard.shell.effectruns import Effects, Run
from boundread.guard.shell.effects import effects
from boundread.guard.shell.launch import base
from boundread.guard.shell.scriptfiles import CODE_MAX, SCRIPT_MAX

UNKNOWN = "\x00"  # guard.shell.state.UNKNOWN: a word whose value is not known here
CHANGES = frozenset({"set", "reset", "add", "ingest", "recover"})
_READERS = frozenset({
    "cat", "head", "tail", "less", "more", "bat", "batcat", "ls", "ll", "dir", "exa", "eza", "stat", "wc", "file",
    "du", "df", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
    "sha512sum", "md5sum", "b2sum", "b3sum", "cksum", "sum", "shasum", "diff", "cmp", "comm", "od",
    "hexdump", "hd", "strings", "jq", "tree", "realpath", "readlink", "basename", "dirname", "test", "[", "[[",
    "echo", "printf", "cd", "pushd", "popd", "pwd", "type", "which", "whereis", "true", "false", ":", "lsof",
    "fuser", "namei", "getfacl", "lsattr", "cut", "nl", "tac", "zcat", "date", "id", "whoami",
    "printenv", "fd", "fdfind", "boundread", "sleep", "nproc", "uname", "hostname", "env", "sudo", "timeout",
    "nohup", "nice", "time", "command", "xargs", "sha256", "md5", "export", "declare", "typeset", "local",
    "readonly"})
_DESTROYERS = frozenset({"rm", "rmdir", "mv", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "gio",
                         "chmod", "chown", "chgrp", "chattr", "setfacl", "rsync", "cp", "install", "ln", "ditto",
                         "gcp", "tar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "unrar", "mount", "find",
                         "fd", "fdfind"})
_COPIES = frozenset({"cp", "install", "rsync", "ditto", "gcp", "scp"})
#: What removes a folder with all it holds: refused on a folder that holds a hook settings file or a project config
#: (the other destroyers are refused there only for the file they make: `cp x.txt .` in a project is everyday work).
_REMOVERS = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "gio"})
_UNPACKERS = frozenset({"tar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "unrar", "ar"})
_FIND_WRITES = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf",
                          "-fls", "-x", "-X", "--exec", "--exec-batch"})
_API = ("budget set", "budget reset", "budget recover", "budget add", "budget ingest", "'set'", '"set"',
        "'reset'", '"reset"', "'recover'", '"recover"', "'add'", '"add"', "'ingest'", '"ingest"', "set_limits",
        ".reset(", "recover(", "add_usage", "ingest(", "record_call", "sidecar", "sqlite3")


def judge(command: str, cwd: str | None, protected: Protected) -> str | None:
    """The refusal of ``command`` run in ``cwd`` inside a session that ``protected`` binds (a session with a
    budget; any guarded session for hook/ground.py's set), or None to let it through."""
    found = effects(command, cwd)
    verdict = (_sets(found, protected) or _writes(found, protected) or _runs(found, protected)
               or _codes(found, protected))
    if verdict or not protected.budget:
        return verdict or _unsure(command, found, protected)
    from boundread.budget.selfurl import reads_url

    return reads_url(command, found, protected) or _unread(found, protected) or _unsure(command, found, protected)


def _sets(found: Effects, protected: Protected) -> str | None:
    try:
        current = max(int(os.environ.get(DEPTH_ENV, "0") or 0), 0)
    except ValueError:
        current = 0
    for name, value in found.sets:
        if name == "*":
            held = [var for var in os.environ if os.environ[var] and (
                protected.guards_env(var) or (protected.budget and var == DEPTH_ENV))]
            if held:
                keep = "keep a nested run in this budget" if protected.budget else "the hooks run with"
                return protected.reason("env -i", f"would drop {', '.join(sorted(held))}, which {keep}")
        elif protected.guards_env(name):
            shown = f"{name}={value}" if value is not None else f"unset {name}"
            return protected.reason(shown, protected.env_why)
        elif name == DEPTH_ENV and protected.budget:
            depth = _integer(value)
            if depth is None or depth < current:
                shown = f"{name}={value}" if value is not None else f"unset {name}"
                return protected.reason(shown, f"would make a nested agent shallower than this one (depth {current}),"
                                        " past `--max-depth`")
    return None


def _integer(value: str | None) -> int | None:
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _writes(found: Effects, protected: Protected) -> str | None:
    for target, raw, cwd in dict.fromkeys(found.writes):  # a loop's body writes the same target once per value
        if UNKNOWN in target:
            if _names(raw, protected):
                return protected.reason(f"> {raw}", f"would write over {protected.own}")
            continue
        place = _where(target, {cwd, *found.cwds}, protected)
        if place is not None and place[0] == "inside":
            return protected.reason(f"> {raw}", f"would write over {place[1]}")
    return None


def _runs(found: Effects, protected: Protected) -> str | None:
    judged: set[tuple[tuple[str, ...], tuple[str, ...], str]] = set()
    for run in found.runs:
        key = (tuple(run.argv), tuple(run.raws), run.cwd)  # the same run twice (a loop's body) has one verdict
        if key in judged:
            continue
        judged.add(key)
        verdict = _run(run, found, protected)
        if verdict:
            return verdict
    return None


def _run(run: Run, found: Effects, protected: Protected) -> str | None:
    argv, raws = run.argv, run.raws
    name = base(argv[0]) if argv[0] != UNKNOWN else ""
    shown = " ".join(raw for k, raw in enumerate(raws) if k == 0 or raw != raws[k - 1])  # a glob's words once
    if name == "boundread" or (not name and ("boundread" in raws[0].lower() or _budget_words(argv))):
        return _boundread(argv, shown, protected)
    if (name in _READERS and name not in ("fd", "fdfind")) or (name == "git" and selfargs.git_reads(argv)):
        return None
    cwds = {run.cwd, *found.cwds}
    if name == "sed":
        refused = _sed(run, shown, cwds, protected)
        if refused or not selfargs.sed_in_place(argv):
            return refused
    if name in ("uniq", "xxd"):  # `uniq IN OUT`: only OUT is written
        out = selfargs.second_operand(argv)
        hit = _where(out, cwds, protected) if out and UNKNOWN not in out else None
        return protected.reason(shown, f"would write over {hit[1]}") if hit and hit[0] == "inside" else None
    if name == "sqlite3":
        if any(" " in word and _names(word, protected) for word in argv[1:]):  # `ATTACH 'LEDGER'`, `writefile(`
            return protected.reason(shown, f"is SQL that names {protected.own}")
        if selfargs.sqlite_read_only(argv):
            return None  # `sqlite3 -readonly LEDGER 'select ...'`: a read
    here = _where(".", {run.cwd}, protected)
    if here is not None and here[0] == "inside":  # `cd ~/.local/state/boundread && python3 -c ...`
        return protected.reason(shown, f"would run in {protected.run_in(here[1])}")
    if name in _UNPACKERS and selfargs.extracts(name, argv):
        into = _unpack_into(argv, cwds, protected)
        if into:
            return protected.reason(shown, f"would unpack into {protected.run_in(into)}")
    if name in ("tar", "bsdtar") and not selfargs.extracts(name, argv) and "--remove-files" not in argv:
        archives = selfargs.tar_archives(argv)  # `tar czf backup.tgz -C ~/.local/state boundread`: a read
        hits = [hit for hit in (_where(a, cwds, protected) for a in archives if UNKNOWN not in a) if hit]
        inside = [hit for hit in hits if hit[0] == "inside"]
        return protected.reason(shown, f"would write the archive over {inside[0][1]}") if inside else None
    if name in ("find", "fd", "fdfind") and not any(arg in _FIND_WRITES for arg in argv[1:]):
        return None
    for at, (word, raw) in enumerate(zip(argv[1:], raws[1:], strict=False), start=1):
        if UNKNOWN in word:
            if _names(raw, protected):
                return protected.reason(shown, f"would change {protected.own}")
            continue
        for path in _paths(word):
            refused = _operand(name, argv, at, path, raw, shown, cwds, protected)
            if refused:
                return refused
    return None


def _operand(name: str, argv: list[str], at: int, path: str, raw: str, shown: str, cwds: set[str],
             protected: Protected) -> str | None:
    """The refusal of the word at ``at`` (the path ``path``) of a program that is not a reader, or None."""
    place = _where(path, cwds, protected, deep=name in _DESTROYERS)
    if place is None:
        return _into(name, argv, at, path, shown, cwds, protected)
    verdict, label, named = place
    if verdict != "inside" and name not in _DESTROYERS:
        return None
    if name in _COPIES and not selfargs.destination(argv, at) and verdict == "inside":
        return None  # `cp budget.sqlite3 /tmp/`: a read of it
    if verdict != "inside" and named and not _removes(name, argv, at, protected):
        return _into(name, argv, at, path, shown, cwds, protected)  # `cp x.txt .` in a project with .claude/
    if verdict != "inside" and name in ("find", "fd", "fdfind"):
        return protected.reason(shown, f"could delete or change {label}: it searches {raw}, which holds them, and"
                                " deletes or runs a command on what it finds (search a folder that does not hold"
                                " them)")
    return protected.reason(shown, f"would change {label}" if verdict == "inside" else
                            f"would remove or move a folder that holds {_files(label)}")


def _files(label: str) -> str:
    """``the budget's own files`` -> ``the budget's files``, as the folder refusal has always named them."""
    return "the budget's files" if label == "the budget's own files" else label


def _removes(name: str, argv: list[str], at: int, protected: Protected) -> bool:
    """Whether ``name`` removes or moves what the folder at ``at`` holds (not a copy into it, ``cp x .``): a
    remover, ``mv`` of it, ``rsync --delete`` into it, ``find`` whose names may match a protected file."""
    if name in _REMOVERS:
        return True
    if name == "mv":
        return not selfargs.destination(argv, at)
    if name == "rsync":
        return selfargs.destination(argv, at) and any(arg.startswith("--delete") for arg in argv)
    if name in ("find", "fd", "fdfind"):
        return protected.found_by(selfargs.find_names(argv))
    return False


def _into(name: str, argv: list[str], at: int, path: str, shown: str, cwds: set[str],
          protected: Protected) -> str | None:
    """A copy, move or link into a folder (``cp /tmp/settings.json .claude/``): the file it makes there."""
    if name not in (*_COPIES, "mv", "ln") or not selfargs.destination(argv, at):
        return None
    for cwd in cwds:
        folder = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        if not os.path.isdir(folder):
            continue
        for source in selfargs.sources(argv, at):
            hit = _where(os.path.join(folder, os.path.basename(source.rstrip("/"))), {cwd}, protected)
            if hit is not None and hit[0] == "inside":
                return protected.reason(shown, f"would change {hit[1]}")
    return None


def _sed(run: Run, shown: str, cwds: set[str], protected: Protected) -> str | None:
    """sed's script: a ``w`` file that is protected, or an ``e`` command with code that names the budget (its
    in-place edit is judged with the other writers, on its operands)."""
    scripts, files = selfargs.sed_scripts(run.argv, run.cwd)
    for path in files:
        from boundread.guard.shell.scriptfiles import read

        scripts.append(read(path, SCRIPT_MAX) or "")
    for script in scripts:
        for target in selfargs.sed_targets(script):
            hit = _where(target, cwds, protected) if UNKNOWN not in target else None
            if hit is not None and hit[0] == "inside":
                return protected.reason(shown, f"would write over {hit[1]} (sed's `w`)")
        if selfargs.sed_runs(script) and _code_verdict(script, protected):
            return protected.reason(shown, "runs commands (sed's `e`) that would change "
                                    f"{'the budget' if protected.budget else protected.own}")
    return None


def _budget_words(argv: list[str]) -> bool:
    """``$(which boundread) budget reset``: the words of a budget change, whatever runs them."""
    words = [w for w in argv[1:] if not w.startswith("-")]
    return len(words) >= 2 and words[0] == "budget" and (words[1] in CHANGES or UNKNOWN in words[1])


def _boundread(argv: list[str], shown: str, protected: Protected) -> str | None:
    words = [w for w in argv[1:] if not w.startswith("-") or UNKNOWN in w]
    helped = any(w in ("--help", "-h") for w in argv[1:])
    if not protected.budget:  # the guard's own ground: `init` writes the agents' hook settings
        if words[:1] == ["init"] and not helped and "--dry-run" not in argv:
            return protected.reason(shown, "would change the agents' hook settings (`boundread init` writes them)")
        return None
    if helped or len(words) < 2 or words[0] != "budget":
        return None if not words or words[0] != UNKNOWN else protected.reason(shown, "may be a change of the budget")
    sub = words[1]
    if sub == "recover" and protected.ledger_there:
        return None  # a damaged ledger: the repair keeps every limit, count and cap mark it can read
    if sub in CHANGES or UNKNOWN in sub:
        what = {"set": "would change the limits of a budget",
                "reset": "would forget what was spent",
                "recover": "would rebuild a ledger that was deleted, its counters lost",
                "add": "would record spend by hand", "ingest": "would record spend with this agent's settings"}
        fix = "`boundread budget set ...` to raise a limit" if sub == "set" else f"`boundread budget {sub} ...`" \
            if sub in CHANGES else ""
        return protected.reason(shown, what.get(sub, "may be a change of the budget"), fix)
    return None


def _paths(word: str) -> list[str]:
    """The paths a word may name: itself, and the value of ``--opt=PATH``, ``of=PATH``, ``-oPATH``."""
    found = [word]
    if "=" in word:
        found.append(word.split("=", 1)[1])
    return [p for p in found if p]


def _where(path: str, cwds: set[str], protected: Protected, deep: bool = False) -> tuple[str, str, bool] | None:
    """What ``path`` (from any of ``cwds``) is to the protected set (``Protected.place``): "inside" when it is a
    protected place or file or in one, first; else "folder" or "ancestor" when it holds some; else None. A glob is
    taken as matching whatever its folder holds."""
    found = None
    for cwd in cwds:
        absolute = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        if any(ch in absolute for ch in "*?["):
            absolute = os.path.dirname(absolute) + os.sep + "x"  # `rm -rf *` in the folder
        for candidate in {absolute, os.path.realpath(absolute)}:
            hit = protected.place(candidate, deep)
            if hit is not None and hit[0] == "inside":
                return hit
            found = found or hit
    return found


def _unpack_into(argv: list[str], cwds: set[str], protected: Protected) -> str | None:
    """What the folder an unpacker writes into (``-C``, ``-d``, ``-oDIR``, else the folder it runs in) is, or
    holds, that is protected: a protected place, a hook folder, a folder above the budget's (a project that holds
    ``.claude/`` is not: unpacking there is everyday work, and what an archive holds is not known here)."""
    targets = [argv[k + 1] for k in range(len(argv) - 1) if argv[k] in ("-C", "--directory", "-d")]
    targets += [a.split("=", 1)[1] for a in argv if a.startswith("--directory=")]
    targets += [a[2:] for a in argv[1:] if a.startswith("-o") and len(a) > 2 and base(argv[0]).startswith("7z")]
    for target in targets or ["."]:
        hit = _where(target, cwds, protected) if UNKNOWN not in target else None
        if hit is not None and not (hit[0] == "ancestor" and hit[2]):
            return hit[1]
    return None


def _codes(found: Effects, protected: Protected) -> str | None:
    for code in found.codes:
        verdict = _code_verdict(code, protected)
        if verdict:
            return protected.reason(_first_line(code), verdict)
    return None


def _code_verdict(code: str, protected: Protected) -> str | None:
    if _names(code, protected):
        return f"is code that names {protected.own}"
    low = code.lower()
    if protected.budget and "boundread" in low and "budget" in low and any(marker in low for marker in _API):
        return "is code that would change the budget"
    return None


def _unread(found: Effects, protected: Protected) -> str | None:
    """A script the command runs that is too big to read whole: what it would run cannot be known."""
    if found.unread and protected.strict:
        return protected.reason(found.unread[0], f"is a script too big to follow whole (over {SCRIPT_MAX // 1024} KiB"
                                f" of shell, {CODE_MAX // 1024 // 1024} MiB of other code), so what it runs cannot be"
                                " checked in a session with a budget")
    return None


def _names(text: str, protected: Protected) -> bool:
    """Whether ``text`` (code, a word's source) names a protected place or one of the budget's files."""
    low = text.lower().replace("'", "").replace('"', "").replace("\\", "")
    return any(name in low for name in protected.names)


def _first_line(code: str) -> str:
    return code.strip().splitlines()[0] if code.strip() else code


def _unsure(command: str, found: Effects, protected: Protected) -> str | None:
    """A command the walk could not follow whole: refused when it runs a script (from a file or a pipe: padding
    ran a budget change past the walk's step budget) and the set is ``strict``, or when its text names a
    protected place or a budget change."""
    if found.unsure and found.scripts and protected.strict:
        return protected.reason(found.scripts[0], "is a script the check could not follow whole (too long, too deep"
                                " or not parsed), so what it runs cannot be checked in a session with a budget")
    if found.unsure and _code_verdict(command, protected):
        return protected.reason(command, f"could not be followed whole, and it names {protected.own}"
                                f"{' or commands' if protected.budget else ''}")
    return None
