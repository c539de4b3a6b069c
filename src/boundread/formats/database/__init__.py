"""SQLite databases, read-only and bounded: ``handler`` (tables and views as sheets, ``--sql``), ``connect`` (the
read-only opening that never writes the file or a -journal/-wal/-shm beside it), ``catalog`` (tables, views,
columns and row counts within a time budget), ``cells`` (a cell as bounded text, cut in SQL) and ``query``
(one read-only statement, checked by an authorizer).
"""
