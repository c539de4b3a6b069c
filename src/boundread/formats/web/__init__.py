"""The web family: files agents meet beyond documents, read by their structure and bounded.

``notebook``: Jupyter notebooks (``ipynb``), cells as pages, outputs summarised. ``mail``: email (``eml``),
headers and body, attachments as members. ``epub``: chapters in spine order as pages. ``page``: a saved web page,
its sections (``sections``: h1-h3 found in the raw bytes, long ones in parts) as pages. ``html``: HTML to text
(shared by all three). ``nbload``: a bounded JSON
loader over ``formats/_jsonscan`` (strings capped, arrays cut once a budget is spent). ``cells``: how a
notebook cell is written. ``parts``: which cells or chapters a read asks for, as pages are asked for.
"""
