"""Structured text: JSON and JSONL, read by their structure and bounded.

The tokeniser is the neutral ``formats/_jsonscan`` (notebooks scan JSON with it too): 1 MiB blocks, strings it
skips never materialised, depth a counter, not recursion. ``jsonshape``: the shape ``info`` reports.
``jsonpath``: the small jq-like path subset (keys, indices, slices, ``[]``). ``jsonout``: streaming
pretty-printer into a sink. ``jsonl``: records are lines. ``handler``: the ``json`` and ``jsonl`` kinds.
"""
