"""The web family: files agents meet beyond documents, read by their structure and bounded.

``notebook``: Jupyter notebooks (``ipynb``), cells as pages, outputs summarised. ``nbload``: a bounded JSON
loader over ``formats/_jsonscan`` (strings capped, arrays cut once a budget is spent). ``cells``: how a
notebook cell is written.
"""
