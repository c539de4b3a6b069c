"""``boundread guard-check``: one hook payload on stdin, one answer in the sending agent's dialect.

Standard library only (argparse, no Typer): ``boundread.__main__`` dispatches here before anything
heavy is imported. Exit 1 is never used to deny (it blocks nowhere).

``on_error`` (allow by default) is for the unforeseen only: a payload that is not JSON, not a hook
payload, or not complete within hook/stdin.py's deadline. Input the guard can parse is decided, whatever it
holds: a UTF-8 BOM, deep nesting, huge numbers (guard/jsonio.py); a setting that cannot be used
falls back with a warning (guard/config.py). Each failure is one stderr line,
``boundread: error: <what> - <the fix> (on_error=...)``; stdout holds only the answer.

stdin is read as it arrives (hook/stdin.py); the budget is consulted after the guard allowed
(hook/budgetgate.py).
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH109
from __future__ import annotations

# Hot path: no json (it imports re), typing, pathlib, argparse, dataclasses or contextlib at module
# level - each costs milliseconds of start-up on every agent tool call. tests/hook/test_speed.py
# checks which modules a call loads.
import os
import sys

from boundread import agents
from boundread.agents import dialect
from boundread.guard import config as guard_config
from boundread.guard import jsonio
from boundread.guard.command import check_command
from boundread.guard.decide import ALLOW, DENY, Decision, check_read
from boundread.hook import ground, options
from boundread.hook.budgetgate import budget_first, with_budget
from boundread.hook.stdin import read_payload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO, Any, NoReturn



class _ArgError(Exception):
    pass


def _parser() -> Any:
    """argparse over hook/options.py's declaration; only when options are given: the usual hook argv skips it."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise _ArgError(message)

    parser = _Parser(prog=options.PROG, description=options.DESCRIPTION,
                     epilog="Examples: " + " | ".join(options.EXAMPLES))
    for option in options.OPTIONS:
        if option.switch:
            parser.add_argument(option.flag, dest=option.dest, action="store_true", help=option.help)
        else:
            parser.add_argument(option.flag, dest=option.dest, metavar=option.metavar, help=option.help,
                                choices=option.choices() if option.choices else None)
    return parser


class _HookArgs:
    """The parsed options of the hook's usual argv (what argparse would give): one attribute per option."""

    __slots__ = options.DESTS
    agent: str | None
    mode: str | None
    config: str | None

    def __init__(self, agent: str | None, mode: str | None = None) -> None:
        for option in options.OPTIONS:
            setattr(self, option.dest, False if option.switch else None)
        self.agent, self.mode = agent, mode


def _fast_args(argv: list[str]) -> _HookArgs | None:
    """The hook's usual argv (what init writes: ``[--mode M] [--agent NAME]``) without building the parser."""
    agent = mode = None
    words = list(argv)
    if len(words) >= 2 and words[0] == "--mode" and words[1] in options.MODES:
        mode, words = words[1], words[2:]
    if words and not (len(words) == 2 and words[0] == "--agent" and words[1] in agents.AGENTS):
        return None
    if words:
        agent = words[1]
    return _HookArgs(agent, mode)


def finish(code: int) -> NoReturn:
    """End the guard-check process with ``code`` once its answer is flushed, skipping the interpreter's
    teardown: freeing every module and object it loaded costs ~6 ms of CPU, a sixth of a hook's call
    (bench/startup.py). Nothing on the hook path needs it: no atexit handler, files written by ``os.open``
    and closed, ledgers closed by their ``with``, the only threads daemons (guard/tools.py)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # a closed pipe, no stdout: the usual exit, as it always did
        sys.exit(code)
    os._exit(code)


def run(argv: list[str], stdin: IO[str] | None = None) -> int:
    """Run guard-check; returns the exit code. Never raises for bad input."""
    try:
        args = _fast_args(argv) or _parser().parse_args(argv)
    except _ArgError as exc:
        return _emit(_failure(f"{exc} - see --help", None, None), "generic")
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    try:
        return _run(args, stdin)
    except Exception as exc:  # noqa: BLE001 - a hook fails per on_error, never with a traceback
        return _emit(_failure(f"internal error: {type(exc).__name__}: {exc} - please report it",
                              None, args.config), args.agent or "generic")


def _run(args: Any, stdin: IO[str] | None) -> int:
    if args.explain or args.path or args.command:
        try:
            cfg = guard_config.load(os.getcwd(), args.config)
        except OSError as exc:
            return _emit(_failure(f"{exc} - check the config files' permissions", None, args.config),
                         args.agent or "generic", args.json)
        _notes(cfg)
        if args.explain:
            return _explain(args.explain, cfg, args.json)
        if args.path:
            decision = check_read(args.path, cwd=os.getcwd(), config=cfg)
            tool, tool_input = "Read", {"file_path": args.path}
        else:
            decision = check_command(args.command, cwd=os.getcwd(), config=cfg)
            tool, tool_input = "Bash", {"command": args.command}
        return _emit(with_budget(decision, {}, tool, tool_input), args.agent or "generic", args.json)
    agent = args.agent
    try:
        payload = read_payload(stdin)
        if payload.get("hook_event_name") == "PostToolBatch":
            return _batch(payload, args.config, args.mode)
        if payload.get("hook_event_name") in ("PostToolUse", "AfterTool"):  # bound what slipped through
            from boundread.hook import posttool

            return posttool.run(payload, args.config)
        agent = agent or agents.detect(payload)
        call = agents.parse(payload, agent)
        cfg = guard_config.load(call.cwd or None, args.config)
    except (dialect.PayloadError, OSError) as exc:
        return _emit(_failure(str(exc), None, args.config), agent or "generic", args.json)
    _notes(cfg)
    decision = _decide(call, cfg)
    refused = None if decision.denied else ground.check(call, cfg)  # hook settings, boundread's config, state
    if refused is not None:
        return _emit(budget_first(refused, payload, call, agent), agent, args.json, call.event)
    judged = decision
    if decision.denied and (cfg.mode or args.mode) == "redirect":  # the config's mode wins over --mode
        from boundread.hook import redirect

        decision = redirect.rewrite(call, decision, cfg)
    ran: Mapping[str, Any] = call.tool_input if decision.updated is None else {**call.tool_input, **decision.updated}
    decision = with_budget(decision, payload, call.tool, ran)
    if decision.stop and agent == "codex":  # Codex cannot be stopped by its pre-tool answer: interrupt its turn
        from boundread.agents.codex_interrupt import interrupt_codex

        interrupt_codex()
    code = _emit(decision, agent, args.json, call.event)
    if judged.denied:  # a deny or its redirect, counted for `boundread stats` once answered: never on an allow
        from boundread.hook import saved

        saved.pre_tool(payload, call, judged, decision)
    return code


def _batch(payload: Mapping[str, Any], config_path: str | None, mode: str | None = None) -> int:
    """Claude Code's PostToolBatch: advice as additionalContext, or nothing. Never a deny, never an error."""
    try:
        from boundread.hook import batch

        cfg = guard_config.load(str(payload.get("cwd") or "") or None, config_path)
        reply = batch.answer(payload, cfg, mode)
    except Exception:  # noqa: BLE001 - advice is optional: on anything unexpected, say nothing
        return 0
    if reply:
        sys.stdout.write(reply)
        sys.stdout.flush()
    return 0


def _decide(call: dialect.Call, cfg: guard_config.GuardConfig) -> Decision:
    ranges = call.range_params or agents.range_params(call.agent)
    decision = Decision(ALLOW, rule="other-tool")
    if call.action == dialect.READ and not call.reads:
        return check_read(call.path, offset=call.offset, limit=call.limit, pages=call.pages,
                          cwd=call.cwd or None, config=cfg, range_params=ranges,
                          file_cap=getattr(agents.dialect_of(call.agent), "READ_FILE_MAX_BYTES", None))
    if call.action == dialect.COMMAND:
        decision = check_command(call.command, cwd=call.cwd or None, config=cfg)
    if call.reads and not decision.denied:  # a read tool beyond the agent's own, PowerShell's Get-Content
        from boundread.guard import tools

        found = tools.check_reads(call.reads, call.cwd or None, cfg, ranges,
                                  combined=call.action == dialect.READ)
        return found if found.denied or call.action == dialect.READ else decision
    return decision


def _on_error(config_path: str | None) -> str:
    """``on_error`` when the payload (and so its cwd) is unknown: the config seen from here, with
    the user config, the project config of the hook's folder and BOUNDREAD_GUARD_ON_ERROR."""
    try:
        return guard_config.load(os.getcwd(), config_path).on_error
    except (OSError, ValueError):
        word = os.environ.get("BOUNDREAD_GUARD_ON_ERROR", "").strip().lower()
        return DENY if word == DENY else ALLOW


def _failure(message: str, cfg: guard_config.GuardConfig | None, config_path: str | None) -> Decision:
    verdict = cfg.on_error if cfg else _on_error(config_path)
    return Decision(verdict, f"boundread guard could not check this call: {message}", rule="error",
                    error=message)


def _emit(decision: Decision, agent: str, as_json: bool = False, event: str = "") -> int:
    if decision.error:
        sys.stderr.write(f"boundread: error: {decision.error} (guard-check on_error={decision.decision})\n")
    reply = dialect.json_reply(decision) if as_json else agents.reply(agent, decision, event)
    if reply.stdout:
        sys.stdout.write(reply.stdout)
        sys.stdout.flush()
    if reply.stderr:
        sys.stderr.write(reply.stderr)
    return reply.code


def _notes(cfg: guard_config.GuardConfig) -> None:
    for note in cfg.notes:
        sys.stderr.write(f"boundread: warning: {note}\n")


def _explain(path: str, cfg: guard_config.GuardConfig, as_json: bool) -> int:
    decision = check_read(path, cwd=os.getcwd(), config=cfg)
    if as_json:
        body = {"decision": decision.decision, "rule": decision.rule, "kind": decision.kind,
                "reason": decision.reason, "config": list(cfg.sources)}
        sys.stdout.write(jsonio.dumps(body) + "\n")
        return 0
    lines = [f"file: {path}", f"decision: {decision.decision}", f"rule: {decision.rule}",
             f"kind: {decision.kind or '-'}", f"config: {' < '.join(cfg.sources)}"]
    if decision.error:
        lines.append(f"error: {decision.error}")
    if decision.reason:
        lines.append("reason:\n" + decision.reason)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
