"""``doctor`` for opencode: its hook is our plugin file, not a registration in JSON settings.

Ready when the plugin is there, is ours and as this version writes it (an older one may speak an older answer),
its command is found and runs this boundread, and the guard refuses (or rewrites) a whole read of a PDF sent as
the plugin sends it (agents/doctor_probe.py).
"""

from __future__ import annotations

from pathlib import Path

from boundread.agents import doctor_program, install, locate
from boundread.agents.base import Check

NAME, EVENT = "opencode", "tool.execute.before"


def checks(plugin: Path, root: Path, home: Path, user: bool) -> list[Check]:
    """doctor's lines for our plugin at ``plugin`` (``user``: the user's own, in opencode's config folder)."""
    scope = doctor_program.Scope(root, home, user, locate.program().command)
    fix = f"run {scope.init(NAME)}"
    try:
        text = plugin.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [Check("plugin", False, f"no {plugin}: opencode runs no guard", fix)]
    except (OSError, UnicodeDecodeError) as exc:
        return [Check("plugin", False, f"cannot read {plugin}: {exc}", "check its permissions")]
    command = install.plugin_command(text)
    if command is None:
        return [Check("plugin", False, f"{plugin} is not boundread's plugin (no guard-check command in it)",
                      f"move it away, then {fix}")]
    spec = install.target(NAME, root, home, user, command.split(" guard-check", 1)[0])
    if text != install.plugin_text(spec):
        found = Check("plugin", False, f"{plugin} is boundread's, from another version: its answers may not match",
                      fix)
    else:
        found = Check("plugin", True, f"{plugin} runs `{command}` before every tool call")
    words = locate.argv(command)
    ran = doctor_program.program_checks(NAME, words, command, scope) if words else [
        Check("command", None, f"cannot check `{command}`: a shell line; run it by hand")]
    if any(check.ok is False for check in ran) or not words:
        return [found, *ran]
    return [found, *ran, _answers(command, root, scope.path)]


def _answers(command: str, root: Path, path: str | None) -> Check:
    """Run the plugin's command once with a payload as the plugin sends it - a whole read of a file the guard
    refuses - and check that the answer refuses or rewrites it (agents/doctor_probe.py)."""
    from boundread.agents import doctor_probe

    found = doctor_probe.check(NAME, {EVENT: [{"command": command}]}, EVENT, root, path)
    return found[0] if found else Check("guard answers", None, f"cannot run `{command}` with a payload")
