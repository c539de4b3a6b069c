"""Spreadsheets (xlsx/xlsm, xls, ods): sheet lists from the workbook's directory, bounded rows.

- :mod:`.handler` - the ``xlsx``, ``xls`` and ``ods`` kinds: ``info`` (sheets and sizes, no cells)
  and ``extract`` (a block of rows as csv / tsv / markdown); the registry names it.
- :mod:`.books` - one small interface over every kind: its sheets, and their rows.
- :mod:`.xlsx_peek` - xlsx sheet names, states and declared sizes, without parsing a cell.
- :mod:`.xlsx_rows` - one xlsx sheet's cached values streamed row by row.
- :mod:`.ods_rows` - ods sheet names by a byte scan, rows by a streaming parse.
- :mod:`.tabular` - a cell value to a string, a row to a csv / tsv / markdown line.

xls goes through python-calamine (in :mod:`.books`).
"""
