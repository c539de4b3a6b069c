"""``info``'s fields for a JSON shape or a JSONL tally, and the next commands worth running."""

from __future__ import annotations

from boundread.contract.model import FILE, Details, Source
from boundread.formats.structured.jsonl import SAMPLE_RECORDS, Tally
from boundread.formats.structured.jsonshape import SAMPLE_ITEMS, Node, Shape
from boundread.units import MB

SHOWN = 12  # keys, arrays, item keys listed


def _kind(node: Node) -> str:
    kinds = [k for k, _ in node.types.most_common()]
    return "/".join(kinds) or "?"


def _top_keys(shape: Shape) -> list[str]:
    root = shape.nodes.get(".")
    if root is None:
        return []
    shown = []
    for key in list(root.keys)[:SHOWN]:
        from boundread.formats.structured.jsonshape import key_path

        node = shape.nodes.get(key_path(".", key))
        if node is None:
            shown.append(key)
        elif node.arrays:
            shown.append(f"{key} (array of {node.longest:,})")
        elif node.objects:
            inner = len(node.keys)
            shown.append(f"{key} (object, {inner:,} key{'' if inner == 1 else 's'})")
        else:
            shown.append(f"{key} ({_kind(node)})")
    return shown


def shape_details(shape: Shape, src: Source) -> Details:
    arrays = sorted(((p, n) for p, n in shape.nodes.items() if n.arrays), key=lambda pn: -pn[1].longest)
    fields: dict[str, object] = {"type": shape.top, "depth": shape.depth}
    if (top := _top_keys(shape)):
        fields["keys"] = top
    if arrays:
        fields["arrays"] = [f"{p} {n.longest:,}" + (f" (in {n.arrays:,})" if n.arrays > 1 else "")
                            for p, n in arrays[:SHOWN]]
    biggest = arrays[0][0] if arrays else None
    items = shape.nodes.get(f"{biggest}[]") if biggest else None
    if items is not None and items.keys:
        sampled = items.objects
        fields["item_keys"] = [f"{k} {n:,}/{sampled:,}" for k, n in items.keys.most_common(SHOWN)]
        if not items.sampled_all:
            fields["item_keys_from"] = f"the first {SAMPLE_ITEMS:,} elements of each array"
    if shape.samples:
        fields["samples"] = [f"{p} = {v}" for p, v in shape.samples]
    details = Details(fields=fields, est_chars=src.size, estimated=True)
    details.warnings.extend(shape.warnings)
    if not shape.complete:
        fields["read_bytes"] = shape.bytes_read
        details.warnings.append(f"stopped by the timeout after {shape.bytes_read / MB:,.0f} MB of "
                                f"{src.size / MB:,.0f} MB: counts and depth are partial (at least)")
    if shape.trailing:
        details.warnings.append("more data after the top value: values one after another, or JSON Lines? "
                                "`extract F --path .` reads each in turn (--rows A-B picks them by number)")
    if biggest is not None:
        first = biggest.replace("[]", "[0]")
        details.next.append(("extract", FILE, "--path", f"{first}[0:20]"))
    if top:
        from boundread.formats.structured.jsonshape import key_path

        root = shape.nodes["."]
        details.next.append(("extract", FILE, "--path", key_path(".", next(iter(root.keys)))))
    details.next.append(("extract", FILE, "--path", "."))
    return details


def jsonl_details(t: Tally, src: Source) -> Details:
    fields: dict[str, object] = {"records": t.records, "records_estimated": not t.counted_all}
    if t.types:
        fields["record_types"] = dict(t.types.most_common())
    if t.keys:
        fields["keys"] = [f"{k} {n:,}/{t.sampled:,}" for k, n in t.keys.most_common(SHOWN)]
    fields["longest_record"] = t.longest
    if t.first is not None:
        fields["first_record"] = t.first
    details = Details(fields=fields, est_chars=src.size, estimated=True)
    if t.sampled >= SAMPLE_RECORDS:
        details.warnings.append(f"keys and types from the first {SAMPLE_RECORDS:,} records")
    if t.bad_count:
        details.warnings.append(f"{t.bad_count:,} of the first {t.sampled:,} records are not valid JSON (lines "
                                f"{', '.join(map(str, t.bad))}{', ...' if t.bad_count > len(t.bad) else ''})")
    if not t.counted_all:
        details.warnings.append(f"stopped by the timeout after {t.bytes_read / MB:,.0f} MB of "
                                f"{src.size / MB:,.0f} MB: the record count is partial")
    if t.longest > 1 << 20:
        details.warnings.append(f"a record of {t.longest:,} bytes: records are cut at 1 MB")
    details.next.append(("extract", FILE, "--rows", f"1-{min(max(t.records, 1), 50)}"))
    details.next.append(("extract", FILE, "--grep", "PATTERN"))
    return details
