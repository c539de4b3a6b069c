"""Logs that are not files here: a container's (``docker logs web``), a pod's (``kubectl logs``), the
systemd journal (``journalctl``), and commands run inside a container (``docker exec web cat F``).

Their size cannot be looked at before the command runs, and a service's log is usually big: without a
bound of their own (``--tail N``, ``-n N``, ``--since``, ``--limit-bytes``) each is a LOG flow, a REMOTE
use that decide refuses unless a later stage bounds it (``| head``, ``| grep -c``) - naming the command
with the bound. ``exec`` runs its command on a shell of the container's own, as ``ssh`` does on its host.
"""

from __future__ import annotations

from boundread.guard.shell.state import REMOTE_MARK, UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

#: A REMOTE use's path ends with this when it is a log stream with no bound (``docker logs web``).
LOG = "\ue011log"
PROGRAMS = frozenset({"docker", "podman", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc",
                      "journalctl", "aws", "gcloud"})
_ENGINES = frozenset({"docker", "podman", "nerdctl"})
#: Options with a value before an engine's subcommand (docker -H HOST, --context C; kubectl -n NS...).
_GLOBAL_VALUES = frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "-n", "--namespace",
                            "--kubeconfig", "--cluster", "--user", "-s", "--server", "-f", "--file", "-p",
                            "--project-name", "--profile", "--env-file", "--project-directory", "--ansi"})
#: The options that bound a log: the last N lines, a time window, a byte limit.
_BOUNDS = frozenset({"--tail", "-n", "--lines", "--since", "--since-time", "--limit-bytes", "-S", "--limit",
                     "--max-items", "--freshness", "--start-time"})
_EXEC_VALUES = frozenset({"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "-c", "--container",
                          "--detach-keys"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """What ``name args`` prints here: a LOG flow, the flows of a command run inside a container, or nothing."""
    if name == "journalctl":
        return _log(name, args, "journal", "journalctl -n 200 --no-pager")
    if name in ("aws", "gcloud"):
        return _cloud(name, args, stdin)
    k = 0
    while k < len(args) and args[k].startswith("-"):  # global options before the subcommand
        k += 1 if "=" in args[k] or args[k] not in _GLOBAL_VALUES else 2
    rest = args[k:]
    group = rest[:1] if rest[:1] in (["compose"], ["service"]) and name in _ENGINES else []
    if rest[:1] in (["container"], ["compose"], ["service"], ["pod"]) and name in _ENGINES:
        rest = rest[1:]
    sub, tail = (rest[0], rest[1:]) if rest else ("", [])
    if sub == "logs":
        shown = " ".join([name, *args[:k], *group, "logs"])
        target = " ".join(_targets(tail))
        flag = "--tail=200" if name in ("kubectl", "oc") else "--tail 200"
        return _log(shown, tail, f"{shown} {target}".strip(), f"{shown} {flag} {target}".strip())
    if sub == "exec":
        return _exec(name, tail, env, ctx)
    return Stream(stdin.named(name), "")  # not modelled: as any unknown program


#: Options of ``logs`` that take a value (docker, podman, kubectl): their value is not the container.
_LOG_VALUES = frozenset({"--tail", "-n", "--since", "--until", "-l", "--selector", "-c", "--container", "--namespace",
                         "--since-time", "--limit-bytes", "--max-log-requests", "--pod-running-timeout", "--index"})


def _targets(args: list[str]) -> list[str]:
    """The containers, pods or services a ``logs`` names, with a selector's ``-l app=web``."""
    out: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-l", "--selector") and k + 1 < len(args):
            out.extend((arg, args[k + 1]))
        if arg in _LOG_VALUES:
            k += 1
        elif not arg.startswith("-"):
            out.append(arg)
        k += 1
    return out


def _log(program: str, args: list[str], where: str, bounded: str) -> Stream:
    """A log stream: nothing to judge when one of its options bounds it, else a LOG flow named ``where``."""
    for k, arg in enumerate(args):
        key, _, value = arg.partition("=")
        if key in _BOUNDS:
            value = value or (args[k + 1] if k + 1 < len(args) else "")
            if value not in ("all", "-1"):  # docker logs --tail all: every line
                return Stream()
        if len(arg) > 2 and arg[:2] == "-n" and arg[2:].isdigit():  # journalctl -n50
            return Stream()
    return Stream([(f"{REMOTE_MARK}{where}:{LOG}", (), bounded)], "")


def _cloud(name: str, args: list[str], stdin: Stream) -> Stream:
    """``aws logs get-log-events|filter-log-events`` and ``gcloud logging read``: a log group's events, as many as
    there are unless ``--limit``/``--max-items``/``--start-time``/``--freshness`` bounds them; the rest of
    these CLIs prints what the API answers, as an unknown program's output."""
    words = [arg for arg in args if not arg.startswith("-")]
    if name == "aws" and words[:1] == ["logs"] and words[1:2] in (["get-log-events"], ["filter-log-events"]):
        return _log(name, args, f"aws logs {words[1]}", f"aws logs {words[1]} --limit 200 ...")
    if name == "gcloud" and words[:2] == ["logging", "read"]:
        return _log(name, args, "gcloud logging read", "gcloud logging read --limit 200 --freshness 1h ...")
    return Stream(stdin.named(name), "")


def _exec(name: str, args: list[str], env: Env, ctx: Ctx) -> Stream:
    """``docker exec [OPTIONS] CONTAINER CMD...``, ``kubectl exec POD -- CMD...``: CMD's output, whose files
    are the container's - each a REMOTE use, judged by its name (decide), as for ``ssh``."""
    from boundread.guard.reason import quote
    from boundread.guard.shell.state import PRINT, REMOTE, FileUse

    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "--":
        k += 2 if args[k] in _EXEC_VALUES else 1
    if name in ("kubectl", "oc"):
        at = args.index("--") if "--" in args else -1
        container, command = (args[k] if k < len(args) else ""), (args[at + 1:] if at >= 0 else args[k + 1:])
    else:
        container, command = (args[k] if k < len(args) else ""), args[k + 1:]
    if not container or not command or any(UNKNOWN in word for word in command):
        return Stream()
    script = command[2] if command[:1] and command[0] in ("sh", "bash") and command[1:2] == ["-c"] and \
        len(command) > 2 else " ".join(quote(word) for word in command)
    before = len(ctx.uses)
    out = ctx.shell(script, Env("/"), Stream())  # the container's root; nothing of this shell comes back
    shown = ctx.uses[before:]
    del ctx.uses[before:]
    where = f"{name} exec {container}"
    for use in shown:
        if use.action == PRINT:
            ctx.uses.append(FileUse(REMOTE, f"{where}:{use.path}", f"{where} {use.program}", use.bounds))
        elif use.action == REMOTE:
            ctx.uses.append(use)
    flows = [(path if path.startswith(REMOTE_MARK) else f"{REMOTE_MARK}{where}:{path}", found, f"{where} {program}")
             for path, found, program in out.flows]
    return Stream(flows, out.text)
