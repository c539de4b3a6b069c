"""Generate API-dump-like JSON and JSONL files of a given size for bench/json_info.py (not checked in).

    python bench/json_fixtures.py /tmp/jsonbench 1000   # 1,000 MB each: dump.json and events.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path


def record(i: int, rnd: random.Random) -> dict[str, object]:
    return {
        "id": i,
        "uuid": f"{rnd.getrandbits(128):032x}",
        "name": f"user {i} \u00e9\u4e2d \"quoted\" \\ slash",
        "active": i % 3 == 0,
        "score": rnd.random() * 100,
        "tags": [f"t{rnd.randrange(50)}" for _ in range(rnd.randrange(5))],
        "address": {"city": "Z\u00fcrich", "zip": f"{rnd.randrange(10000):05d}", "geo": [47.3, 8.5]},
        "note": None if i % 7 else "x" * rnd.randrange(400),
        "events": [{"t": rnd.randrange(10**9), "kind": "click"} for _ in range(rnd.randrange(4))],
    }


def write(folder: Path, megabytes: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    target = megabytes * 1_000_000
    rnd = random.Random(7)
    with open(folder / "dump.json", "w", encoding="utf-8") as out:
        out.write('{"meta": {"version": 3, "source": "bench"}, "items": [')
        i = written = 0
        while written < target:
            piece = ("," if i else "") + json.dumps(record(i, rnd), ensure_ascii=False)
            written += out.write(piece)
            i += 1
        out.write(f'], "count": {i}}}\n')
    rnd = random.Random(7)
    with open(folder / "events.jsonl", "w", encoding="utf-8") as out:
        i = written = 0
        while written < target:
            written += out.write(json.dumps(record(i, rnd), ensure_ascii=False) + "\n")
            i += 1


if __name__ == "__main__":
    write(Path(sys.argv[1]), int(sys.argv[2]))
