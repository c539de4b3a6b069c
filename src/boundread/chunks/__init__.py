"""Whole-document work: cut a file's text into chunks that each fit one read, for map-reduce by sub-agents.

- :mod:`.plan` - the ``chunks`` command's work: one handler run (as ``extract``), the chunk files, the manifest,
  reuse, ``--from``, the price of reading every chunk.
- :mod:`.feed` - the sink handlers write into, and where each family's text may be cut.
- :mod:`.textread` - plain text read as the text handler reads it, from any byte offset (``--from`` on a log).
- :mod:`.split` - the splitter: pieces in, chunks of at most N tokens (and L lines) out.
- :mod:`.pieces` - what it takes and gives.
- :mod:`.manifest` - the typed manifest, read back and compared.
"""
