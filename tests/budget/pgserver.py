"""A throw-away PostgreSQL server for the ledger tests: ``initdb`` + ``pg_ctl`` into a temporary folder.

On 127.0.0.1 at a free port, password (SCRAM) authentication, no Unix socket. ``initdb`` refuses to run as
root: as root the server runs as the ``postgres`` user (Debian's package creates it; ``.ci/run`` installs it).
``start_bouncer`` puts a real pgbouncer (Debian's package, also installed by ``.ci/run``) in front of it, in
transaction mode; ``Stall`` and ``LoseReply`` are TCP proxies that fail the way networks do.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

USER, PASSWORD = "boundread", "s3cret-Pa55"


@dataclass(frozen=True)
class Server:
    folder: Path
    port: int
    bin: Path
    as_user: tuple[str, ...]

    def url(self, options: str = "", *, password: str = PASSWORD, port: int | None = None) -> str:
        tail = f"?{options}" if options else ""
        return f"postgresql://{USER}:{password}@127.0.0.1:{port or self.port}/postgres{tail}"

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                        "stop"], capture_output=True, check=False, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


def binaries() -> Path | None:
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[4]))
    return versions[-1].parent if versions else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(max_connections: int = 100) -> Server:
    """Start a server; RuntimeError saying why it could not."""
    bindir = binaries()
    if bindir is None:
        raise RuntimeError("no initdb/pg_ctl found (apt-get install postgresql)")
    as_user: tuple[str, ...] = ()
    folder = Path(tempfile.mkdtemp(prefix="boundread-pg-"))
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root and there is no 'postgres' user for initdb") from None
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ("runuser", "-u", "postgres", "--")
    pwfile = folder / "pw"
    pwfile.write_text(PASSWORD + "\n", encoding="utf-8")
    if as_user:
        os.chown(pwfile, pwd.getpwnam("postgres").pw_uid, -1)
    data = folder / "data"
    run = [*as_user, str(bindir / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={pwfile}",
           "--auth=scram-sha-256", "-E", "UTF8", "--locale=C"]
    done = subprocess.run(run, capture_output=True, text=True, check=False, timeout=120)
    if done.returncode:
        raise RuntimeError(f"initdb failed: {done.stderr.strip()[-500:]}")
    port = free_port()
    with open(data / "postgresql.conf", "a", encoding="utf-8") as conf:
        conf.write(f"port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n"
                   "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                   f"max_connections = {max_connections}\nsuperuser_reserved_connections = 0\n")
    log = folder / "server.log"
    done = subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
                           "start"], capture_output=True, text=True, check=False, timeout=90)
    server = Server(folder, port, bindir, as_user)
    if done.returncode:
        text = log.read_text(encoding="utf-8", errors="replace")[-500:] if log.exists() else done.stderr
        server.stop()
        raise RuntimeError(f"pg_ctl start failed: {text.strip()}")
    return server


class Stall:
    """A TCP proxy to the server that stalls at ``up`` (client bytes), after ``down`` (server bytes), or when
    ``stalled`` is set; a stall at a mark closes both sides after ``close_s``, so an unbounded wait ends."""

    def __init__(self, upstream: int, *, up: bytes | None = None, down: bytes | None = None,
                 close_s: float = 8.0) -> None:
        self.upstream, self.up, self.down, self.close_s = upstream, up, down, close_s
        self.stalled = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = int(self.sock.getsockname()[1])
        self.ends: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client = self.sock.accept()[0]
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self.ends += [client, server]
            threading.Thread(target=self._pump, args=(client, server, self.up, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, self.down, True), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, mark: bytes | None, after: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                return
            if mark and not self.stalled.is_set() and mark in data:
                if after:
                    dst.sendall(data[: data.index(mark) + len(mark)])
                self._stall()
                continue
            if not self.stalled.is_set():
                dst.sendall(data)

    def _stall(self) -> None:
        self.stalled.set()

        def close() -> None:
            time.sleep(self.close_s)
            self.close()

        threading.Thread(target=close, daemon=True).start()

    def close(self) -> None:
        for end in [self.sock, *self.ends]:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


class LoseReply:
    """A TCP proxy that forwards everything, except that the first ``times`` server answers holding ``mark`` (the
    CommandComplete of a COMMIT) are dropped and both sides closed: the COMMIT landed, its answer was lost."""

    def __init__(self, upstream: int, *, mark: bytes = b"COMMIT\x00", times: int = 1) -> None:
        self.upstream, self.mark, self.left = upstream, mark, times
        self.cut = 0
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = int(self.sock.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client = self.sock.accept()[0]
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, answers: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if answers and data and self.mark in data:
                with self.lock:
                    lose = self.left > 0
                    self.left -= lose
                    self.cut += lose
                if lose:
                    data = b""
            if not data:
                for end in (src, dst):
                    with suppress(OSError):
                        end.shutdown(socket.SHUT_RDWR)
                    end.close()
                return
            try:
                dst.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        with suppress(OSError):
            self.sock.close()


@dataclass(frozen=True)
class Bouncer:
    folder: Path
    port: int

    def stop(self) -> None:
        pid = self.folder / "pgbouncer.pid"
        with suppress(OSError, ValueError):
            os.kill(int(pid.read_text(encoding="utf-8").strip()), 15)
        deadline = time.monotonic() + 10
        while pid.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_bouncer(server: Server, *, pool_size: int = 10) -> Bouncer:
    """pgbouncer in transaction mode in front of ``server``: any database name goes to the same-named database, the
    same user and password (SCRAM). RuntimeError saying why it could not start."""
    exe = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(exe).exists():
        raise RuntimeError("no pgbouncer found (apt-get install pgbouncer)")
    folder = Path(tempfile.mkdtemp(prefix="boundread-bouncer-"))
    port = free_port()
    (folder / "users.txt").write_text(f'"{USER}" "{PASSWORD}"\n', encoding="utf-8")
    (folder / "pgbouncer.ini").write_text(
        f"[databases]\n* = host=127.0.0.1 port={server.port}\n\n[pgbouncer]\nlisten_addr = 127.0.0.1\n"
        f"listen_port = {port}\nunix_socket_dir =\nauth_type = scram-sha-256\nauth_file = {folder}/users.txt\n"
        f"pool_mode = transaction\ndefault_pool_size = {pool_size}\nmax_client_conn = 1000\n"
        f"logfile = {folder}/pgbouncer.log\npidfile = {folder}/pgbouncer.pid\n", encoding="utf-8")
    if server.as_user:
        owner = pwd.getpwnam("postgres")
        for path in (folder, *folder.iterdir()):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    done = subprocess.run([*server.as_user, exe, "-d", str(folder / "pgbouncer.ini")], capture_output=True,
                          text=True, check=False, timeout=30)
    bouncer = Bouncer(folder, port)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return bouncer
        time.sleep(0.05)
    log = folder / "pgbouncer.log"
    text = log.read_text(encoding="utf-8", errors="replace")[-500:] if log.exists() else done.stderr
    bouncer.stop()
    raise RuntimeError(f"pgbouncer did not start: {text.strip()}")
