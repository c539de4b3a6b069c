"""The byte-level readers: what a file is and what its containers hold, from the bytes alone.

- :mod:`~boundread.bytelevel.sniff`: what a file is, from its magic numbers, zip members, OLE
  stream names and text encoding; :mod:`~boundread.bytelevel.sniffed` the kinds and what a sniff says,
  :mod:`~boundread.bytelevel.heads` the formats told by their first bytes, :mod:`~boundread.bytelevel.containers`
  zip and OLE containers by their member and stream names.
- :mod:`~boundread.bytelevel.zipdir`: a zip's central directory, read lazily, one record at a time.
- :mod:`~boundread.bytelevel.ole`: the stream names of an OLE compound file (old Office, encrypted OOXML).
- :mod:`~boundread.bytelevel.textenc`: which text encoding a sample is in, or that it is not text.
- :mod:`~boundread.bytelevel.names`: the code page of archive member names the archive does not mark as
  UTF-8 (chardet, loaded only for such a name).

Each imports only the standard library at module level, and this package imports nothing: the
guard-check hook (on every agent tool call) uses sniff and zipdir, so their start-up cost is its own.
"""
