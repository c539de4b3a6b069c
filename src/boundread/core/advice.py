"""The command that reads a kind of file, for the fix of a message that met the wrong one: ``pages book.xlsx 1``
says ``use `boundread sheets book.xlsx``` instead of sending the person to ``info`` to find it out. The kinds'
families come from :mod:`boundread.contract.kinds`, so a new workbook or paged kind is advised the same way.
"""

from __future__ import annotations

import shlex

from boundread.contract import kinds as families


def command_for(kind: str, name: str) -> str:
    """``use `boundread sheets book.xlsx``` (and what each command reads), by the family of ``kind``."""
    operand = shlex.quote("./" + name if name.startswith("-") else name)
    if kind in families.WORKBOOKS:
        return f"it is a workbook: use `boundread sheets {operand}` to list its sheets"
    if kind in families.PAGED:
        return f"use `boundread pages {operand} 1-5`"
    if kind in families.ARCHIVES:
        return f"it is an archive: use `boundread list-zip {operand}`, then extract --member"
    if kind in (*families.DOCUMENTS, "text", "image"):
        return f"use `boundread extract {operand}` (--lines, --grep, --head or --tail for text)"
    return f"use `boundread info {operand}` to see what it is"
