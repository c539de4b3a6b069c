"""PDF: page counts from the catalogue, text page by page, an optional layout grid.

- :mod:`.handler` - the ``pdf`` kind: ``info`` (pages, metadata, a text sample) and ``extract``
  (page ranges); the registry names it.
- :mod:`.engines` - PDFium (the default) and pdfminer.six behind one small interface.
- :mod:`.layout` - glyph boxes placed on a character grid for ``--layout``.
"""
