"""The digest of one tool call: what the repeat policy compares, and what the ledger records.

Standard library only, with no typing, json (it imports re) or hashlib (OpenSSL) at run time: the hook path
(hookpath.py) computes it on every recorded call, and the policy (policy.py) and the Python API use the same.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hashlib import sha256
    from typing import Any
else:
    try:  # hashlib would also load OpenSSL's _hashlib and _blake2 (~3 ms)
        from _sha256 import sha256
    except ImportError:
        from hashlib import sha256

__all__ = ["action_digest"]


def action_digest(tool: str, tool_input: Any) -> str:
    """sha256 of the tool name and its input as normalized JSON (sorted keys, no spaces).

    Exactly ``json.dumps([tool, tool_input], sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    default=str)``: the encoder ``json.dumps`` itself runs, called as ``guard.jsonio`` does.
    """
    try:
        from _json import encode_basestring, make_encoder
    except ImportError:  # a Python without the accelerator
        import json

        text = json.dumps([tool, tool_input], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    else:
        # json.JSONEncoder.iterencode's arguments: markers, default, encoder, indent, key_separator,
        # item_separator, sort_keys, skipkeys, allow_nan
        encode = make_encoder({}, str, encode_basestring, None, ":", ",", True, False, True)
        text = "".join(encode([tool, tool_input], 0))
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
