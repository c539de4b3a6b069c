"""The rg the CLI started before the engine loaded (cli/early.py), held until the engine asks for its search.

The engine takes it only if the command it would run is the same, argument for argument (:func:`adopt`); one
started for another command is killed there, and one never asked for is killed when the command ends
(:func:`discard`). What runs is always what the engine asked for: a wrong guess costs a kill, never an answer."""

from __future__ import annotations

from boundread.formats._rg.child import Child
from boundread.formats._rg.proc import end

_held: tuple[list[str], Child] | None = None


def hold(argv: list[str], child: Child) -> None:
    """Keep ``child``, started as ``argv``, for the engine (one at a time: an earlier one is discarded)."""
    global _held
    discard()
    _held = (argv, child)


def held() -> bool:
    return _held is not None


def adopt(argv: list[str]) -> Child | None:
    """The rg held when it runs ``argv`` exactly; None otherwise (one held for another command is killed here: the
    engine starts its own)."""
    global _held
    if _held is None:
        return None
    early, child = _held
    _held = None
    if early == argv:
        return child
    end(child)
    return None


def discard() -> None:
    """Kill and reap an rg held and not taken (the read failed, or went another way)."""
    global _held
    if _held is not None:
        child = _held[1]
        _held = None
        end(child)
