"""Generated Claude Code transcripts and real-shaped hook payloads for the budget tests."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

_CALL_IDS = itertools.count(1)


def assistant_line(
    i: int,
    *,
    model: str = "claude-sonnet-4-5",
    inp: int = 10,
    out: int = 100,
    cache_read: int = 1000,
    cache_write: int = 50,
    request: str | None = None,
) -> str:
    return (
        json.dumps(
            {
                "parentUuid": f"p{i}",
                "isSidechain": False,
                "sessionId": "s-1",
                "type": "assistant",
                "requestId": request or f"req_{i}",
                "uuid": f"u{i}",
                "timestamp": "2025-07-14T14:23:32.422Z",
                "message": {
                    "id": f"msg_{i}",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [{"type": "text", "text": "x"}],
                    "usage": {
                        "input_tokens": inp,
                        "output_tokens": out,
                        "cache_read_input_tokens": cache_read,
                        "cache_creation_input_tokens": cache_write,
                        "service_tier": "standard",
                    },
                },
            }
        )
        + "\n"
    )


def write_transcript(path: Path, start: int, count: int, *, repeats: int = 2) -> None:
    """Append ``count`` requests, each streamed on ``repeats`` lines, with a user line between."""
    with open(path, "a", encoding="utf-8") as f:
        for i in range(start, start + count):
            for _ in range(repeats):
                f.write(assistant_line(i))
            f.write(json.dumps({"type": "user", "message": {"role": "user", "content": "go"}}) + "\n")


def pre_tool_use(session: str, transcript: Path, command: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run"},
        "tool_use_id": f"toolu_{next(_CALL_IDS):06d}",  # a new id per call, as the clients give
        **extra,
    }
