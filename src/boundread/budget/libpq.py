"""The libpq functions the budget hook calls through ctypes (budget/pghook.py), and their C signatures.

Why by hand: ctypes needs each function's argument and result types, and libpq ships no Python binding of its
own. psycopg's (``psycopg.pq``) is the one that exists, but importing it imports psycopg (~120 ms on every tool
call, pghook.py says why that matters), and its ctypes table is private (``psycopg.pq._pq_ctypes``). So the
signatures are declared here, once, in libpq-fe.h's words, and tests/budget/test_pg_libpq_signatures.py reads
libpq-fe.h and fails when a function here no longer has the arguments and result declared.

Standard library only (ctypes: ~3 ms); imported on the hook path only when the ledger is PostgreSQL.
"""

from __future__ import annotations

import ctypes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LIBPQ = ("libpq.so.5", "libpq.5.dylib", "libpq.dll")

#: What each letter stands for: the C type in libpq-fe.h and its ctypes type. A pointer libpq returns to be freed
#: (PQescapeLiteral's) is ``p``: ``c_char_p`` would copy the text and lose the address PQfreemem needs.
TYPES: dict[str, Any] = {
    "p": ctypes.c_void_p,  # PGconn *, PGresult *, void *, const Oid *, const int *, a string to free
    "a": ctypes.POINTER(ctypes.c_char_p),  # const char *const *: an array of strings
    "s": ctypes.c_char_p,  # const char *, or a char * libpq owns
    "i": ctypes.c_int,  # int, and the enums ConnStatusType, ExecStatusType
    "u": ctypes.c_uint,  # Oid
    "z": ctypes.c_size_t,  # size_t
    "-": None,  # void
}

#: (function, result, arguments), one letter each (TYPES).
SIGNATURES: tuple[tuple[str, str, str], ...] = (
    ("PQconnectdbParams", "p", "aai"),
    ("PQstatus", "i", "p"),
    ("PQerrorMessage", "s", "p"),
    ("PQfinish", "-", "p"),
    ("PQsendQuery", "i", "ps"),
    ("PQsendQueryParams", "i", "psipappi"),
    ("PQsocket", "i", "p"),
    ("PQconsumeInput", "i", "p"),
    ("PQisBusy", "i", "p"),
    ("PQgetResult", "p", "p"),
    ("PQresultStatus", "i", "p"),
    ("PQresultErrorMessage", "s", "p"),
    ("PQresultErrorField", "s", "pi"),
    ("PQescapeLiteral", "p", "psz"),
    ("PQfreemem", "-", "p"),
    ("PQntuples", "i", "p"),
    ("PQnfields", "i", "p"),
    ("PQgetvalue", "s", "pii"),
    ("PQgetisnull", "i", "pii"),
    ("PQftype", "u", "pi"),
    ("PQclear", "-", "p"),
)


class Missing(Exception):
    """No libpq this process can load (a psycopg binary wheel brings its own, which ctypes cannot find)."""


def load() -> Any:
    """libpq with every function of SIGNATURES typed; ``Missing`` when none of LIBPQ loads."""
    for name in LIBPQ:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        raise Missing("no libpq for ctypes")
    for function, result, arguments in SIGNATURES:
        typed = getattr(lib, function)
        typed.restype, typed.argtypes = TYPES[result], [TYPES[letter] for letter in arguments]
    return lib
