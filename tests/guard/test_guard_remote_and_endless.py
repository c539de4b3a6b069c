"""Commands whose output has no bound the file can give (issue 19 part 2): devices that never end
(``cat /dev/urandom``), FIFOs that block (``less pipe``); and, unless a bound is given, the logs of a
container, a pod, the journal or another host (``docker logs web``, ``kubectl logs``, ``journalctl``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("endless")
    os.mkfifo(root / "pipe")
    (root / "small.txt").write_text("hello\n")
    return root


def _reason(command: str, cwd: Path) -> str | None:
    decision = check_command(command, cwd=cwd)
    return decision.reason if decision.denied else None


@pytest.mark.parametrize("command", [
    "cat /dev/urandom", "cat /dev/zero", "head -c 100000000 /dev/zero", "od -x /dev/urandom", "xxd /dev/urandom",
    "base64 /dev/urandom", "tr -dc a-z < /dev/urandom", "less pipe", "cat pipe", "head -n 5 /dev/zero",
    "cat /dev/urandom | head -n 1000000", "tail -c 100 /dev/urandom",
])
def test_a_device_or_a_fifo_printed_without_a_byte_bound_is_denied(command: str, folder: Path) -> None:
    reason = _reason(command, folder)
    assert reason is not None, command
    assert "has no bound" in reason and "head -c 1024" in reason


@pytest.mark.parametrize("command", [
    "head -c 100 /dev/urandom", "head -c 32 /dev/urandom | base64", "cat /dev/null", "cat small.txt > /dev/null",
    "echo hi | cat /dev/stdin", "cat /proc/cpuinfo", "dd if=/dev/zero of=/tmp/x bs=1M count=1",
    "tr -dc 'a-zA-Z0-9' < /dev/urandom | fold -w 32 | head -n 1", "head -n 5 /dev/urandom", "head -n 5 pipe",
])
def test_a_bounded_or_harmless_device_read_is_allowed(command: str, folder: Path) -> None:
    assert _reason(command, folder) is None, command


@pytest.mark.parametrize(("command", "bounded"), [
    ("docker logs web", "docker logs --tail 200 web"),
    ("docker container logs api", "docker logs --tail 200 api"),
    ("podman logs web", "podman logs --tail 200 web"),
    ("docker compose logs", "docker compose logs --tail 200"),
    ("docker-compose logs api", "docker-compose logs --tail 200 api"),
    ("kubectl logs deploy/api", "kubectl logs --tail=200 deploy/api"),
    ("kubectl -n prod logs -l app=web --all-containers", "--tail=200"),
    ("journalctl --no-pager", "journalctl -n 200 --no-pager"),
    ("journalctl -u nginx -o json", "journalctl -n 200 --no-pager"),
    ("ssh prod journalctl --no-pager", "ssh prod journalctl -n 200 --no-pager"),
    ("docker logs --tail all web | sort", "docker logs --tail 200 web"),
])
def test_a_log_with_no_bound_is_denied_with_the_bounded_command(command: str, bounded: str, folder: Path) -> None:
    reason = _reason(command, folder)
    assert reason is not None, command
    assert bounded in reason


@pytest.mark.parametrize(("command", "bounded"), [
    ("ssh prod cat /var/log/syslog", "ssh prod 'tail -n 200 /var/log/syslog'"),
    ("ssh prod 'zcat /var/log/syslog.2.gz'", "ssh prod 'wc -c /var/log/syslog.2.gz'"),
    ("docker exec web cat /var/log/app.log", "docker exec web 'tail -n 200 /var/log/app.log'"),
    ("docker exec -it db cat /var/lib/data/dump.sql", "docker exec db 'grep -m 200 PATTERN /var/lib/data/dump.sql'"),
    ("kubectl exec api-7d9f -- cat /srv/data/export.csv", "kubectl exec api-7d9f 'tail -n 200"),
])
def test_a_log_or_data_file_elsewhere_printed_whole_is_denied(command: str, bounded: str, folder: Path) -> None:
    reason = _reason(command, folder)
    assert reason is not None, command
    assert bounded in reason


@pytest.mark.parametrize("command", [
    "docker logs -n 100 api", "docker logs --since 10m web", "docker logs --tail=50 web", "kubectl get pods",
    "kubectl logs --tail=100 deploy/api", "kubectl logs api-7d9f --since=5m --tail 200",
    "journalctl -u nginx -n 50 --no-pager", "journalctl -n50", "journalctl --since '10 min ago' -n 200 --no-pager",
    "docker logs web | grep -c ERROR", "docker logs web 2>&1 | tail -n 100", "docker logs web > /tmp/web.log",
    "ssh prod 'tail -n 50 /var/log/syslog'", "ssh prod 'df -h'", "ssh prod cat /etc/nginx/nginx.conf",
    "ssh prod 'grep -c ERROR /var/log/app.log'", "docker ps", "docker exec web ls /var/log",
    "docker exec web cat /etc/hostname", "kubectl describe pod api-7d9f",
])
def test_a_bounded_log_or_a_small_file_elsewhere_is_allowed(command: str, folder: Path) -> None:
    assert _reason(command, folder) is None, command


@pytest.mark.parametrize("command", ["seq 100000000", "seq 1 10000000", "seq 0 2 100000000", "ssh prod seq 100000000",
                                     "yes", "yes y", "yes | cat -n", "seq inf", "seq -inf 1", "seq 1 0.5 inf"])
def test_a_generator_over_the_cap_is_denied_with_the_bounded_form(command: str, folder: Path) -> None:
    reason = _reason(command, folder)
    assert reason is not None and f"{command.split(' | ')[0]} | head -n 100" in reason  # the printing stage
    endless = "inf" in command or command.startswith("yes")
    assert ("| wc -l" in reason) is not endless  # counting what has no end would not end either


@pytest.mark.parametrize("command", ["while true; do echo tick; done", "while :; do cat small.txt; done",
                                     "until false; do echo again; done",
                                     "while true\ndo\n  cat small.txt\ndone"])
def test_a_loop_without_end_that_prints_is_denied_with_its_bounded_form(command: str, folder: Path) -> None:
    (folder / "small.txt").write_text("one line\n", encoding="utf-8")
    reason = _reason(command, folder)
    assert reason is not None and "without end" in reason, command
    assert f"{' '.join(command.split())} | head -n 100" in reason


@pytest.mark.parametrize("command", ["while true; do echo tick; done | head -n 5", "while true; do sleep 1; done",
                                     "while true; do echo x; break; done", "while :; do echo w; exit 0; done",
                                     "while true; do if [ -f ready ]; then break; fi; echo wait; sleep 1; done",
                                     "while true; do echo tick; done > /dev/null",
                                     "while [ ! -f ready ]; do echo waiting; sleep 1; done"])
def test_a_loop_that_ends_or_is_bounded_or_prints_nothing_is_allowed(command: str, folder: Path) -> None:
    assert _reason(command, folder) is None, command


@pytest.mark.parametrize("command", ["seq 1 100", "seq 10 -1 1", "seq 1 10000000 | wc -l",
                                     "seq 1 1000000 | head -n 5", "for i in $(seq 1 6); do echo $i; done",
                                     "yes | head -n 3", "yes n | rm -i *.tmp", "yes > /dev/null", "seq inf 1",
                                     "seq inf | head -n 5"])
def test_a_small_or_bounded_generator_is_allowed(command: str, folder: Path) -> None:
    assert _reason(command, folder) is None, command


def test_yes_has_no_end_and_seq_its_size() -> None:
    from boundread.guard.shell import generators

    assert generators._size("yes", []) == generators.ENDLESS
    assert generators._size("seq", ["inf"]) == generators.ENDLESS
    assert generators._size("seq", ["inf", "1"]) == 0
    assert generators._size("seq", ["1", "1000"]) == 1000 * 5
    assert generators._size("seq", ["$N"]) is None
    assert generators.run("seq", ["1", "3"]).text == "1\n2\n3\n"


@pytest.mark.parametrize(("name", "args", "unbounded"), [
    ("aws", ["logs", "get-log-events", "--log-group-name", "app", "--log-stream-name", "s1"], True),
    ("aws", ["logs", "get-log-events", "--log-group-name", "app", "--limit", "100"], False),
    ("aws", ["s3", "ls"], False),
    ("gcloud", ["logging", "read", "severity>=INFO", "--format", "json"], True),
    ("gcloud", ["logging", "read", "severity>=INFO", "--limit=50"], False),
])
def test_cloud_log_reads_are_logs(name: str, args: list[str], unbounded: bool) -> None:
    """Modelled in remote.py; programs.py lists aws and gcloud as consumers, so this is their model once it
    hands them over (issue 19)."""
    from boundread.guard.shell import remote
    from boundread.guard.shell.state import Env, Stream

    flows = remote.run(name, args, Env("/"), None, Stream()).flows  # type: ignore[arg-type] - no ctx needed
    assert bool(flows) == unbounded
    assert all(remote.LOG in path for path, _found, _program in flows)
