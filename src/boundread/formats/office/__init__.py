"""Office documents in zipped XML (OOXML and ODF): word processing and presentations.

Handlers (the registry names each one):

- :mod:`.docx` - ``docx`` and ``odt``: counts and headings, then bounded text (mammoth or a stream).
- :mod:`.pptx` - ``pptx``: slide text in presentation order.
- :mod:`.odp` - ``odp``: ``draw:page`` elements of content.xml as slides.

Helpers:

- :mod:`.wordstream` - word-processing XML (docx and odt bodies) streamed as blocks.
- :mod:`.html2md` - mammoth's HTML output as markdown blocks.
- :mod:`.slides` - what pptx and odp share: the slide marker, slide selection, how a run ends.
- :mod:`.slide_comments` - pptx comments (legacy and modern) as ``Comment (author): text`` lines.
- :mod:`.graphics` - the charts and SmartArt (and ODF embedded objects) a word-processing body draws.
- :mod:`.odf_objects` - ODF embedded objects: a chart's line, or a warning naming what was not read.

Spreadsheets, zipped or not, are in :mod:`boundread.formats.sheets`; the element helpers both families use
(local names, attributes, ODF paragraph text) are in :mod:`boundread.formats._xml`, and the OOXML package
(guarded parts, streaming XML), its charts' and SmartArt's text in :mod:`boundread.formats._ooxml`.
"""
