"""The libpq signatures the budget hook declares for ctypes (budget/libpq.py) are libpq's own.

ctypes trusts what it is told: a function whose arguments changed in libpq would be called wrongly, without an
error, until a hook crashed or read garbage. So each declared function is looked up in libpq-fe.h (the header
of the installed libpq, from libpq-dev) and compared argument by argument with the declaration.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from boundread.budget import libpq

# what a C type in libpq-fe.h is, in budget/libpq.py's letters: a pointer of any kind, or the scalar
_SCALARS = {"int": "i", "ConnStatusType": "i", "ExecStatusType": "i", "Oid": "u", "size_t": "z", "void": "-"}
_POINTERS = "pas"  # libpq.py tells pointers apart (a string, an array of them, anything else); C says "*"


def _header() -> Path:
    """libpq-fe.h: where pg_config says, else Debian's and most distributions' place."""
    places = [Path("/usr/include/postgresql"), Path("/usr/include"), Path("/usr/local/include")]
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--includedir"], capture_output=True, text=True, check=False)
        places.insert(0, Path(found.stdout.strip()))
    for place in places:
        if (place / "libpq-fe.h").is_file():
            return place / "libpq-fe.h"
    pytest.fail("libpq-fe.h not found: install libpq-dev (Debian/Ubuntu) or libpq-devel, as .ci/run does")


def _declared_in_header() -> dict[str, tuple[str, list[str]]]:
    """Every ``extern`` function of libpq-fe.h: name -> (result type, argument types), comments dropped."""
    text = re.sub(r"/\*.*?\*/", " ", _header().read_text(encoding="utf-8", errors="replace"), flags=re.S)
    found = {}
    for result, name, arguments in re.findall(r"extern\s+([^;()]*?)\b(PQ\w+)\s*\(([^;]*?)\)\s*;", text):
        found[name] = (result.strip(), [a.strip() for a in arguments.split(",") if a.strip() not in ("", "void")])
    return found


def _letter(c_type: str) -> str:
    """The kind of a C type: ``*`` for any pointer, else its scalar letter (a parameter name is dropped)."""
    if "*" in c_type:
        return "*"
    words = c_type.replace("const", " ").split()
    return _SCALARS.get(words[0], f"?{c_type}") if words else "?"


def _kind(letter: str) -> str:
    return "*" if letter in _POINTERS else letter


@pytest.mark.parametrize(("function", "result", "arguments"), libpq.SIGNATURES, ids=[s[0] for s in libpq.SIGNATURES])
def test_each_declared_function_matches_libpq_fe_h(function: str, result: str, arguments: str) -> None:
    header = _declared_in_header()
    assert function in header, f"{function} is no longer declared in libpq-fe.h"
    c_result, c_arguments = header[function]
    assert _letter(c_result) == _kind(result), (function, c_result)
    assert [_letter(a) for a in c_arguments] == [_kind(letter) for letter in arguments], (function, c_arguments)


def test_the_header_reader_sees_known_shapes() -> None:
    """The check itself reads the header: PQgetvalue is (const PGresult *res, int tup_num, int field_num)."""
    assert _declared_in_header()["PQgetvalue"] == ("char *", ["const PGresult *res", "int tup_num",
                                                             "int field_num"])


def test_every_letter_has_a_ctypes_type() -> None:
    used = {letter for _, result, arguments in libpq.SIGNATURES for letter in result + arguments}
    assert used <= set(libpq.TYPES)
    assert libpq.load().PQsendQueryParams.argtypes is not None  # the installed libpq takes the declaration
