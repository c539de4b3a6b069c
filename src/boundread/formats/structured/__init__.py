"""Structured text: JSON and JSONL, read by their structure and bounded.

``jsonscan``: an incremental tokeniser over 1 MiB blocks (strings it skips are never materialised, depth is a
counter, not recursion). ``jsonshape``: the shape ``info`` reports. ``jsonpath``: the small jq-like path
subset (keys, indices, slices, ``[]``). ``jsonout``: streaming pretty-printer into a sink. ``jsonl``: records
are lines. ``handler``: the ``json`` and ``jsonl`` kinds.
"""
