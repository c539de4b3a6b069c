"""Property tests: damaged files never escape as anything but a BoundreadError, and never exceed the bounds.

Small valid files (fpdf2, xlsxwriter, python-docx, python-pptx, zipfile, py7zr, tarfile) are truncated,
bit-flipped and overwritten at hypothesis-chosen positions, then go through ``engine.info`` and
``engine.extract`` in-process with small limits. Each call either returns (and then the output file
holds exactly ``chars`` characters, at most ``max_chars``) or raises a ``BoundreadError`` subclass.
Random hook payloads (any JSON, and mutations of the real payloads in tests/payloads/) go through
``guard.main.run``: it never raises, returns an int, and prints at most one JSON object.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundread.contract.model import Request, Span
from boundread.core import engine
from boundread.errors import BoundreadError
from boundread.limits import Limits

SENTINEL = "PROPERTY-SENTINEL"
LIMITS = Limits(max_chars=2000, max_lines=50, timeout=5)
# BOUNDREAD_FUZZ_EXAMPLES=500 fuzzes deeper (still deterministic); the default keeps the suite quick.
EXAMPLES = int(os.environ.get("BOUNDREAD_FUZZ_EXAMPLES", "40"))
FUZZ = settings(derandomize=True, max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PAYLOADS = Path(__file__).parent / "payloads"


# --- small valid files ----------------------------------------------------------------------------------------

def _pdf(folder: Path) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    for n in range(1, 4):
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 8, f"{SENTINEL} page {n}. " + "Some words on a line. " * 20)
    return bytes(pdf.output())


def _xlsx(folder: Path) -> bytes:
    import xlsxwriter  # type: ignore[import-untyped]

    path = folder / "v.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for name in ("Data", "More"):
        sheet = book.add_worksheet(name)
        for r in range(30):
            sheet.write_row(r, 0, [f"{SENTINEL}-{r}", r, r * 1.5, "=B1+C1"])
    book.close()
    return path.read_bytes()


def _docx(folder: Path) -> bytes:
    import docx

    doc = docx.Document()
    doc.add_heading(f"{SENTINEL} heading", level=1)
    for n in range(15):
        doc.add_paragraph(f"Paragraph {n} with words and more words.", style="List Bullet" if n % 3 else None)
    table = doc.add_table(rows=3, cols=3)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"r{r}c{c}"
    path = folder / "v.docx"
    doc.save(str(path))
    return path.read_bytes()


def _pptx(folder: Path) -> bytes:
    import pptx

    prs = pptx.Presentation()
    for n in range(4):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = f"{SENTINEL} slide {n}"
        slide.placeholders[1].text = "A bullet\nAnother bullet"
        slide.notes_slide.notes_text_frame.text = f"notes {n}"
    path = folder / "v.pptx"
    prs.save(str(path))
    return path.read_bytes()


def _zip(folder: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("notes.txt", f"{SENTINEL}\n" + "line of text\n" * 200)
        zf.writestr("dir/data.csv", "a,b,c\n1,2,3\n" * 50)
        zf.writestr("stored.txt", "stored\n" * 20, compress_type=zipfile.ZIP_STORED)
    return buf.getvalue()


def _7z(folder: Path) -> bytes:
    import py7zr

    path = folder / "v.7z"
    with py7zr.SevenZipFile(path, "w") as sz:
        sz.writestr(f"{SENTINEL}\n" + "line of text\n" * 200, "notes.txt")
        sz.writestr("a,b\n1,2\n" * 40, "data.csv")
    return path.read_bytes()


def _tgz(folder: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, text in (("notes.txt", f"{SENTINEL}\n" + "line\n" * 300), ("b/data.csv", "a,b\n1,2\n" * 40)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


MAKERS: dict[str, Callable[[Path], bytes]] = {
    "pdf": _pdf, "xlsx": _xlsx, "docx": _docx, "pptx": _pptx, "zip": _zip, "7z": _7z, "tar.gz": _tgz,
}


class Valid(dict[str, bytes]):
    """The valid files by kind; a short repr keeps hypothesis' failure reports readable."""

    def __repr__(self) -> str:
        return f"<valid files: {', '.join(f'{k} ({len(v):,} bytes)' for k, v in self.items())}>"


@pytest.fixture(scope="module")
def valid(tmp_path_factory: pytest.TempPathFactory) -> Valid:
    folder = tmp_path_factory.mktemp("valid")
    return Valid({kind: make(folder) for kind, make in MAKERS.items()})


# --- mutations ------------------------------------------------------------------------------------------------

@st.composite
def mutations(draw: st.DrawFn, size: int) -> list[tuple[str, int, int]]:
    """A list of (op, position, value): truncate at, flip a bit at, or overwrite a byte at a position.
    Half the positions fall in the last quarter, where zip directories and PDF xref tables live."""
    anywhere = st.integers(0, size - 1)
    tail = st.integers(max(0, size - size // 4 - 1), size - 1)
    position = st.one_of(anywhere, tail)
    op = st.tuples(st.sampled_from(["flip", "flip", "byte", "cut"]), position, st.integers(0, 255))
    return draw(st.lists(op, min_size=1, max_size=6))


def mutate(data: bytes, ops: list[tuple[str, int, int]]) -> bytes:
    buf = bytearray(data)
    for op, pos, value in ops:
        if pos >= len(buf):
            continue
        if op == "cut":
            del buf[pos:]
        elif op == "flip":
            buf[pos] ^= 1 << (value % 8)
        else:
            buf[pos] = value
    return bytes(buf)


FILTERS = st.sampled_from([
    engine.Filters(),
    engine.Filters(lines=Span(3, 30)),
    engine.Filters(grep=r"line|SENTINEL|\d", context=1),
])


def check_bounded(path: Path, filters: engine.Filters, req: Request | None = None) -> None:
    """info and extract either answer within the bounds or raise a BoundreadError; nothing else."""
    req = req or Request(limits=LIMITS)
    with contextlib.suppress(BoundreadError):
        engine.info(path, req)
    out = path.with_suffix(path.suffix + ".out.txt")
    try:
        result = engine.extract(path, req, filters, output_path=out)
    except BoundreadError:
        return
    assert result.chars <= LIMITS.max_chars, result
    assert result.output is not None
    assert len(Path(result.output).read_text(encoding="utf-8")) == result.chars, result


@pytest.mark.parametrize("kind", list(MAKERS))
def test_valid_inputs_are_read(kind: str, valid: dict[str, bytes], tmp_path: Path) -> None:
    """The starting points are real files of their kind (otherwise the fuzzing below proves little)."""
    path = tmp_path / f"valid.{kind}"
    path.write_bytes(valid[kind])
    result = engine.extract(path, Request(limits=Limits(max_chars=50_000)), output_path=tmp_path / "o.txt")
    assert result.kind == {"tar.gz": "tar"}.get(kind, kind)
    assert result.chars > 0


@pytest.mark.parametrize("kind", list(MAKERS))
@FUZZ
@given(data=st.data(), filters=FILTERS)
def test_mutated_files_stay_bounded(
    kind: str, valid: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject,
    filters: engine.Filters,
) -> None:
    original = valid[kind]
    ops = data.draw(mutations(len(original)), label="mutations")
    folder = tmp_path_factory.mktemp("mutant")
    path = folder / f"mutant.{kind}"
    path.write_bytes(mutate(original, ops))
    check_bounded(path, filters)


MAGICS = [b"", b"%PDF-1.7\n", b"PK\x03\x04", b"PK\x05\x06", b"7z\xbc\xaf\x27\x1c", b"\x1f\x8b\x08",
          b"BZh9", b"\xfd7zXZ\x00", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", b"\xff\xfe", b"\x89PNG\r\n\x1a\n"]


@FUZZ
@given(magic=st.sampled_from(MAGICS), body=st.binary(max_size=3000), name=st.sampled_from(
    ["x.pdf", "x.zip", "x.xlsx", "x.docx", "x.txt", "x.7z", "x.gz", "noext"]), filters=FILTERS)
def test_random_bytes_stay_bounded(
    magic: bytes, body: bytes, name: str, filters: engine.Filters, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("random") / name
    path.write_bytes(magic + body)
    check_bounded(path, filters)


@pytest.mark.parametrize("kind", ["zip", "7z", "tar.gz"])
@FUZZ
@given(data=st.data())
def test_mutated_archive_members_stay_bounded(
    kind: str, valid: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    original = valid[kind]
    ops = data.draw(mutations(len(original)), label="mutations")
    member = data.draw(st.sampled_from(["notes.txt", "data.csv", "dir/data.csv", "b/data.csv", "missing"]))
    path = tmp_path_factory.mktemp("member") / f"mutant.{kind}"
    path.write_bytes(mutate(original, ops))
    check_bounded(path, engine.Filters(member=member))


# --- hook payloads --------------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
KEYS = ["hook_event_name", "tool_name", "tool_input", "cwd", "toolName", "toolArgs", "preToolUse", "tool_info",
        "agent_action_name", "workspace_roots", "workspaceRoots", "file_path", "command", "path", "offset",
        "limit", "pages", "conversation_id", "turn_id", "timestamp", "tool_use_id", "hookName", "parameters",
        "command_line", "view_range"]
NEAR = st.sampled_from(["Read", "Bash", "read_file", "run_shell_command", "view", "shell", "PreToolUse",
                        "BeforeTool", "beforeReadFile", "beforeShellExecution", "pre_read_code",
                        "pre_run_command", "cat {f}", "{f}", "head -c 10 {f}", "{d}", "", "/", "..", "\x00"])


def _templates() -> list[dict[str, Any]]:
    found = sorted(PAYLOADS.glob("*/*.json"))
    return [json.loads(p.read_text(encoding="utf-8")) for p in found]


@st.composite
def near_real(draw: st.DrawFn, folder: str, target: str) -> Any:
    """A real payload with some values (at any depth) replaced by random or near-real ones."""
    templates = _templates()
    payload = json.loads(json.dumps(draw(st.sampled_from(templates)))) if templates else {}
    payload = json.loads(json.dumps(payload).replace("__DIR__", folder))
    for _ in range(draw(st.integers(1, 4))):
        holder = payload
        while isinstance(holder, dict) and holder and draw(st.booleans()):
            inner = holder[draw(st.sampled_from(sorted(holder)))]
            if not isinstance(inner, dict) or not inner:
                break
            holder = inner
        if not isinstance(holder, dict):
            break
        key = draw(st.sampled_from(sorted(holder) + KEYS))
        value = draw(st.one_of(JSON, NEAR.map(lambda s: s.format(f=target, d=folder))))
        if draw(st.integers(0, 5)) == 0:
            holder.pop(key, None)
        else:
            holder[key] = value
    return payload


def run_guard(argv: list[str], text: str) -> tuple[int, str]:
    from boundread.hook.main import run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(argv, stdin=io.StringIO(text))
    assert isinstance(code, int) and code in (0, 2), code  # allow/deny; exit 1 would not block anywhere
    assert "Traceback" not in err.getvalue()
    printed = out.getvalue()
    if printed.strip():
        assert isinstance(json.loads(printed), dict), printed  # one object: json.loads refuses trailing data
    return code, printed


AGENT_ARGV = st.sampled_from([[], ["--agent", "claude"], ["--agent", "cursor"], ["--agent", "gemini"],
                              ["--agent", "copilot"], ["--agent", "cline"], ["--agent", "windsurf"], ["--json"]])


@FUZZ
@given(payload=JSON, argv=AGENT_ARGV)
def test_any_json_payload_never_crashes_the_guard(payload: Any, argv: list[str]) -> None:
    run_guard(argv, json.dumps(payload))


@FUZZ
@given(text=st.text(max_size=200), argv=AGENT_ARGV)
def test_any_text_on_stdin_never_crashes_the_guard(text: str, argv: list[str]) -> None:
    run_guard(argv, text)


@settings(FUZZ, max_examples=EXAMPLES * 3 // 2)
@given(data=st.data(), argv=AGENT_ARGV)
def test_near_real_payloads_never_crash_the_guard(
    data: st.DataObject, argv: list[str], tmp_path_factory: pytest.TempPathFactory, valid: dict[str, bytes]
) -> None:
    folder = tmp_path_factory.getbasetemp() / "guard"
    folder.mkdir(exist_ok=True)
    target = folder / "report.pdf"
    if not target.exists():
        target.write_bytes(valid["pdf"])
    payload = data.draw(near_real(str(folder), str(target)), label="payload")
    run_guard(argv, json.dumps(payload))
