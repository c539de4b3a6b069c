"""PDF: page counts from the catalogue, text page by page, an optional layout grid.

- :mod:`.handler` - the ``pdf`` kind: ``extract`` (page ranges) and ``info`` (from :mod:`.info`: pages,
  metadata, a text sample); the registry names it.
- :mod:`.engines` - ``open_pdf``: PDFium (the default) or pdfminer.six, the other when one cannot open the file.
- :mod:`.doc` - what either engine's document is (``PdfDoc``, yielding :mod:`.page` pages) and what both share.
- :mod:`.pdfium` - PDFium's document, through :mod:`.binding` (the ~40 PDFium functions boundread calls,
  declared on pypdfium2's library without importing pypdfium2). :mod:`.miner` - pdfminer.six's.
- :mod:`.labels` - page labels as runs, ``i-iv, 1-19``.
- :mod:`.judge` - whether a page's text is text (unmapped glyphs, vertical writing): one judgement for extract
  and info.
- :mod:`.layout` - glyph boxes placed on a character grid for ``--layout``.
- :mod:`.reread` - the engine that reads each page: PDFium, or pdfminer / Tesseract where PDFium's text is
  missing or unreliable (vertical writing, unmapped glyphs).
- :mod:`.parallel` - PDFium's text of many pages read by forked workers, handed back in page order.
- :mod:`.runs` - page numbers as runs, ``1-3,7``.
- :mod:`.forms` - a form's data as text: AcroForm field values after their page, an XFA form's datasets.
"""
