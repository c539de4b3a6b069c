"""Neutral helpers for a ``--grep`` by ripgrep, shared by the text family (a file on disk) and the archives family
(a decompressed stream): ``proc`` finds, starts, watches and ends rg; ``records`` hands its ``LINE:OFFSET:text``
records to a Sink; ``pattern`` turns a Python pattern into the rg regex that flags a superset of its lines;
``stream`` greps a stream through rg's stdin; ``counts`` remembers a file's line count and first lone CR."""
