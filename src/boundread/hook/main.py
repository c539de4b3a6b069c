"""``boundread guard-check``: one hook payload on stdin, one answer in the sending agent's dialect.

Standard library only (argparse, no Typer): ``boundread.__main__`` dispatches here before anything
heavy is imported. Exit 1 is never used to deny (it blocks nowhere).

``on_error`` (allow by default) is for the unforeseen only: a payload that is not JSON, not a hook
payload, or not complete within STDIN_DEADLINE. Input the guard can parse is decided, whatever it
holds: a UTF-8 BOM, deep nesting, huge numbers (guard/jsonio.py); a setting that cannot be used
falls back with a warning (guard/config.py). Each failure is one stderr line,
``boundread: error: <what> - <the fix> (on_error=...)``; stdout holds only the answer.

stdin is read as it arrives, and the payload is decided as soon as one complete JSON value has
arrived, even when the client leaves stdin open; a writer that trickles or stalls gets
STDIN_DEADLINE in all.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH109
from __future__ import annotations

# Hot path: no json (it imports re), typing, pathlib, argparse, dataclasses or contextlib at module
# level - each costs milliseconds of start-up on every agent tool call. tests/guard/test_guard_speed.py
# checks which modules a call loads.
import os
import sys

from boundread import agents
from boundread.agents import dialect
from boundread.guard import config as guard_config
from boundread.guard import jsonio
from boundread.guard.decide import ALLOW, DENY, Decision, check_command, check_read
from boundread.hook import ground, options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO, Any, NoReturn

# A PreToolUse payload is small; a post-tool one carries the tool's output, twice in Gemini's AfterTool
# (llmContent and returnDisplay): 32 MB lets a 15 MB output be saved whole and replaced. Past the cap the
# client's own cut applies (Gemini shows the model 40 KB; Claude Code persists big Bash output itself).
MAX_PAYLOAD = 32 * 1024 * 1024
STDIN_DEADLINE = 5.0  # seconds for the whole payload, however it trickles in
QUIET = 0.05  # after this pause, a buffer that ends in "}" is tried as the whole payload
_JSON_SPACE = b" \t\r\n"
# A budget deny is a decision, not a fault: Claude Code shows it as "PreToolUse:Read hook error: ..." (guard/reason.py).
# A ledger that cannot count is a fault (its reason names the fix): that deny keeps its own opening.
BUDGET_OPENING = "Not an error: boundread's budget stopped this on purpose - "


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
        payload = _read_payload(stdin)
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
        return _emit(_budget_first(refused, payload, call, agent), agent, args.json, call.event)
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


def _budget_first(refused: Decision, payload: Mapping[str, Any], call: dialect.Call, agent: str) -> Decision:
    """The budget's self-cap refusal instead of the guard's own-ground one, where the session has a budget and its
    check refuses the call too: that refusal ends the session (an agent that tried to lift its cap; Codex's turn
    is interrupted, as for any budget stop)."""
    try:
        from boundread.budget.enforce import budget_refusal
    except ImportError:
        return refused
    why = budget_refusal(dict(payload), call.tool, call.tool_input)
    if not why:
        return refused
    from boundread.budget.verdict import end_session

    decision = Decision(DENY, BUDGET_OPENING + why, rule="budget", stop=end_session(dict(payload), why))
    if agent == "codex":
        from boundread.agents.codex_interrupt import interrupt_codex

        interrupt_codex()
    return decision


def with_budget(decision: Decision, payload: Mapping[str, Any], tool: str, tool_input: object) -> Decision:
    """The one place the budget ledger (issue 4) is consulted, after the guard itself allowed."""
    if decision.denied:
        return decision
    try:
        from boundread.budget.enforce import UNUSABLE, check_tool_call
    except ImportError:
        return decision
    spawn = tool.casefold() in ("agent", "task") and bool(payload)  # budget/agents.py SPAWN_TOOLS
    why, recorded = _spawn_gate(dict(payload)) if spawn else (None, None)
    why = why or check_tool_call(dict(payload), tool, tool_input)
    if not why:
        return decision
    if recorded:  # the spawn the gate recorded will not happen: the rest of the budget refused the call
        _unspawn(dict(payload), recorded)
    if why.startswith(UNUSABLE):  # a fault to fix, not a cap: the session is not ended for it
        return Decision(DENY, why, rule="budget")
    from boundread.budget.verdict import end_session

    return Decision(DENY, BUDGET_OPENING + why, rule="budget", stop=end_session(dict(payload), why))


def _spawn_gate(payload: dict[str, Any]) -> tuple[str | None, str | None]:
    """A sub-agent spawn passes the depth, count and rate limits, and the next round of requests with the new
    sub-agent in it, first (budget/agents.py): (the deny reason or None, the key the spawn was recorded under).
    Rare, so the full ledger; nothing at all where no scope of the session has a budget. A ledger that cannot say
    is doubt: the spawn is denied, as guard-check denies a budgeted call then."""
    from boundread.budget.agents import budgeted

    if not budgeted(payload):
        return None, None
    import time

    from boundread.budget.agents import forget, gate
    from boundread.budget.enforce import UNUSABLE, project_of, session_of
    from boundread.budget.errors import LedgerError
    from boundread.budget.verdict import OPENING, after_request
    from boundread.hook.ingest import open_budget_ledger

    session, project = session_of(payload) or "default", project_of(payload)
    try:
        with open_budget_ledger() as ledger:
            refused, recorded = gate(ledger, payload, session, project, time.time())
            if refused or not recorded:
                return refused, None
            ahead = after_request(ledger, session, project, fresh=False)  # the new sub-agent's requests counted
            if ahead.stop:
                forget(ledger, session, recorded)
                return ahead.stop.removeprefix(OPENING), None
            return None, recorded
    except LedgerError as exc:
        return f"{UNUSABLE}{exc} - the spawn could not be checked (calls with a budget are denied until then)", None


def _unspawn(payload: dict[str, Any], key: str) -> None:
    """Take back the spawn the gate recorded under ``key``."""
    from boundread.budget.agents import forget
    from boundread.budget.enforce import session_of
    from boundread.budget.errors import LedgerError
    from boundread.hook.ingest import open_budget_ledger

    try:
        with open_budget_ledger() as ledger:
            forget(ledger, session_of(payload) or "default", key)
    except LedgerError:
        pass


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


def _read_payload(stdin: IO[str] | None) -> dict[str, Any]:
    if stdin is None:
        got = _read_stdin()
        if isinstance(got, dict):  # a post-tool payload over MAX_PAYLOAD, or cut short: read as it streamed
            return got
        text = got
    else:
        text = stdin.read(MAX_PAYLOAD + 1)
        if len(text) > MAX_PAYLOAD:
            read = stdin.read
            return _big([text.encode("utf-8", "surrogatepass")],
                        lambda: read(1024 * 1024).encode("utf-8", "surrogatepass"), "over")
    text = text[1:] if text.startswith(jsonio.BOM) else text  # Windows tools write one
    if not text.strip():
        raise dialect.PayloadError("empty stdin - pipe one hook payload (JSON) in, or use --path/--command")
    try:
        payload = jsonio.loads(text)
    except ValueError as exc:  # json.JSONDecodeError
        msg, line, pos = getattr(exc, "msg", str(exc)), getattr(exc, "lineno", 1), getattr(exc, "pos", 0)
        if pos >= len(text.rstrip()) or msg.startswith("Unterminated"):
            return _big([text.encode("utf-8", "surrogatepass")], bytes, "early", len(text.encode()))
        return _big([text.encode("utf-8", "surrogatepass")], bytes, f"invalid JSON on stdin ({msg}, line {line})")
    if not isinstance(payload, dict):
        raise dialect.PayloadError(f"the payload is not a JSON object (a {type(payload).__name__}) - send "
                                    "the hook payload object")
    return payload


def _big(chunks: list[bytes], more: Any, why: str, size: int = 0) -> dict[str, Any]:
    """A payload that ``json`` cannot take - over MAX_PAYLOAD, cut short or broken - read by the streaming
    reader (hook/bigpayload.py): a post-tool one is answered with the bounded replacement, never passed
    unread; anything else is refused as before, for ``why``."""
    from boundread.hook import bigpayload

    payload = bigpayload.read(chunks, more)
    if payload is not None:
        return payload
    if why == "over":
        why = (f"stdin is over {MAX_PAYLOAD // (1024 * 1024)} MB, not a hook payload - send one hook payload "
               "(JSON) per call")
    elif why == "early":
        why = f"the JSON payload on stdin ends early (after {size:,} bytes: truncated) - send the whole payload"
    elif why == "late":
        why = (f"stdin gave no complete JSON payload within {STDIN_DEADLINE:.0f} s - the client must write the "
               "whole payload at once")
    else:
        why += " - send one hook payload (a JSON object)"
    raise dialect.PayloadError(why)


def _read_stdin() -> str | dict[str, Any]:
    """stdin as it arrives, up to MAX_PAYLOAD bytes: until EOF, or until one complete JSON value has
    arrived and the writer pauses (a client may leave stdin open), within STDIN_DEADLINE in all. Past
    MAX_PAYLOAD, or at the deadline, a post-tool payload is read on as it streams (:func:`_big`)."""
    stream = sys.stdin
    if stream is None:
        raise dialect.PayloadError("no stdin - pipe the hook payload in, or use --path/--command")
    if stream.isatty():
        raise dialect.PayloadError("stdin is a terminal - pipe the hook payload in, or use --path/--command")
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return stream.read(MAX_PAYLOAD + 1)
    import time

    deadline = time.monotonic() + STDIN_DEADLINE
    chunks: list[bytes] = []
    total, tried, last = 0, -1, b""
    while total <= MAX_PAYLOAD:
        left = deadline - time.monotonic()
        if left <= 0:
            return _big(chunks, lambda: _more(fd, deadline), "late")  # a post-tool payload cut short
        probe = last == b"}" and total != tried
        if not _ready(fd, min(left, QUIET) if probe else left):
            if probe:  # the writer paused after a "}": is that the whole payload?
                tried = total
                text = b"".join(chunks).decode("utf-8", "replace")
                if jsonio.complete(text):
                    return text
            continue
        chunk = os.read(fd, 1024 * 1024)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        last = chunk.rstrip(_JSON_SPACE)[-1:] or last
    if total > MAX_PAYLOAD:
        return _big(chunks, lambda: _more(fd, deadline), "over")
    return b"".join(chunks).decode("utf-8", "replace")


def _more(fd: int, deadline: float) -> bytes:
    """The next chunk of stdin; TimeoutError past the deadline (the streaming reader stops there)."""
    import time

    if not _ready(fd, max(deadline - time.monotonic(), 0.0)):
        raise TimeoutError(f"stdin gave no more within {STDIN_DEADLINE:.0f} s")
    return os.read(fd, 1024 * 1024)


def _ready(fd: int, timeout: float) -> bool:
    try:
        import select

        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):  # Windows pipes, closed descriptors: read and see
        return True
