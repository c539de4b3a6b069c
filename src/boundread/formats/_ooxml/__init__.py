"""Neutral helpers for the zip-of-XML Office packages, shared by the office and sheets families (a leading
underscore: not a family of its own, like ``formats/_xml.py``): ``package`` opens a part and its relationships
within bounds, ``charts`` reads a DrawingML chart's title, series, categories and axes as one line, ``diagrams``
a SmartArt data part's shown text in tree order."""
