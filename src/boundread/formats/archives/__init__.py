"""Archives: tables of contents from the directory only, one member through a capped read.

- :mod:`.handler` - every archive kind (zip, 7z, tar, gz, bz2, xz; rar is refused): ``info``,
  ``extract``, ``listing`` and ``read_member``; the registry names it. It picks a backend:
- :mod:`.zipfiles` - zip, and any zip-based file (docx, xlsx, jar...), via the central directory.
- :mod:`.sevenz` - 7z through py7zr.
- :mod:`.tarfiles` - tar, plain or compressed, through the standard library.
- :mod:`.single` - one compressed file that is not a tar (notes.txt.gz, dump.sql.bz2).
- :mod:`.common` - what the backends share: name, link and ratio checks, the capped read.
"""
