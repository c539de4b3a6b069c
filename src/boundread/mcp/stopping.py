"""What a stopping server waits for: the chunk runs in flight. A chunks call writes chunk files from its worker
and the manifest last; killed between the two, the folder would hold chunks no manifest describes (and the next
run would find no manifest to go on from). On SIGTERM or SIGINT the server interrupts each run (its sink stops
at the next write, as Ctrl-C stops ``boundread chunks``), waits for it to write its manifest, then exits.

One :class:`Runs` per server (no module state); its methods are called from the workers and the server's thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class Interruptible(Protocol):
    def interrupt(self) -> None: ...


class Runs:
    """The chunk runs in flight, and whether the server is stopping."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sinks: set[Interruptible] = set()
        self._count = 0
        self.stopping = False

    @contextmanager
    def run(self) -> Iterator[None]:
        """One chunk run, from its first step (the hash of the source) to its manifest."""
        with self._lock:
            self._count += 1
        try:
            yield
        finally:
            with self._lock:
                self._count -= 1

    @contextmanager
    def watch(self, sink: Interruptible) -> Iterator[object]:
        """The chunker's ``watch``: the run's sink, interrupted at once when the server is stopping."""
        with self._lock:
            self._sinks.add(sink)
            stopping = self.stopping
        if stopping:
            sink.interrupt()
        try:
            yield sink
        finally:
            with self._lock:
                self._sinks.discard(sink)

    def stop(self) -> None:
        """Interrupt every run now and every run that reaches its sink from now on."""
        with self._lock:
            self.stopping = True
            sinks = list(self._sinks)
        for sink in sinks:
            sink.interrupt()

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._count > 0
