"""Email (``.eml``, RFC 5322 with MIME): headers, the body, and the attachments as members.

``extract mail.eml`` writes the main headers, the list of attachments, then the body (its text/plain, or its
text/html turned into text). ``list-zip mail.eml`` lists the attachments (name, decoded size, type) and
``extract mail.eml --member NAME`` reads one through the handler of its own kind (the engine sniffs the bytes
as it does an archive member's). An attached message (message/rfc822) is a member ``NAME.eml``.

Bounded: an email larger than ``MAX_MAIL`` is refused (exit 7) before it is parsed; the MIME tree is walked
without recursion and without decoding attachments (a size is the encoded length, 3/4 of it for base64), at
most ``MAX_PARTS`` parts and ``MAX_DEPTH`` levels; the listing is paged by --max-entries.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from email.message import EmailMessage, Message

from boundread.contract.model import FILE, Details, Listing, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Refused, UsageError
from boundread.formats.web import parts as web_parts
from boundread.units import MB, human_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KINDS: tuple[str, ...] = ("eml",)
MAX_MAIL = 64 * MB
MAX_PARTS = 20_000
MAX_DEPTH = 64
LISTED_IN_EXTRACT = 50  # attachments named by extract; list-zip pages through all
_HEADERS = ("From", "To", "Cc", "Date", "Subject")
#: what Python's header parser raises on some damaged headers instead of a defect (an address list cut inside
#: an angle-addr: IndexError in get_addr_spec, Python 3.11)
_PARSER_ERRORS = (IndexError, ValueError, TypeError, AttributeError, LookupError)


@dataclass(frozen=True)
class Part:
    name: str
    mime: str
    size: int  # decoded bytes (estimated from the encoded length)
    message: Message


@dataclass
class Mail:
    msg: EmailMessage
    body: Message | None
    parts: list[Part]
    warnings: list[str]


def parse(src: Source) -> Mail:
    if src.size > MAX_MAIL:
        raise Refused(f"{src.name} is {human_bytes(src.size)}, more than the {human_bytes(MAX_MAIL)} boundread "
                      "parses of one email", f"read its start as text: `boundread extract {shlex.quote(src.name)} "
                      "--lines 1-200` (the headers and the first part)")
    from email.parser import BytesParser

    try:  # the email package recurses into nested parts: a few thousand levels exhaust the stack
        with src.open() as fh:  # fed from the file in blocks: a 54 MB email peaks at 160 MB, not 420 MB whole
            msg = BytesParser(policy=_policy()).parse(fh)
        assert isinstance(msg, EmailMessage)
        body = msg.get_body(preferencelist=("plain", "html"))
        parts, warnings = _walk(msg, body)
    except RecursionError:
        raise Refused(f"{src.name} nests its MIME parts thousands of levels deep (a mail bomb?)",
                      f"read its start as text: `boundread extract {shlex.quote(src.name)} --lines 1-200`") from None
    if msg.defects:
        warnings.append(f"{len(msg.defects):,} MIME defects ({type(msg.defects[0]).__name__}...): read as far as "
                        "they allow")
    return Mail(msg, body, parts, warnings)


_PARSED = 4096  # header values kept parsed, by (name, raw value)


def _policy() -> Any:
    """policy.default, with a header's class made once per name and a raw value parsed once: its registry builds
    a new class for every header it is asked for, and every ask parses the value again (9 asks of each of 10,000
    attachments' headers took 8 s of a listing). The header objects are immutable, so equal ones may be shared."""
    from email.headerregistry import HeaderRegistry
    from email.policy import EmailPolicy

    class Registry(HeaderRegistry):
        def __init__(self) -> None:
            super().__init__()
            self.made: dict[str, Any] = {}

        def __getitem__(self, name: str) -> Any:
            key = name.lower()
            if (made := self.made.get(key)) is None:
                made = self.made[key] = super().__getitem__(name)
            return made

    parsed: dict[tuple[str, str], Any] = {}

    class Policy(EmailPolicy):
        def header_fetch_parse(self, name: str, value: str) -> Any:
            key = (name, value)
            if (found := parsed.get(key)) is None:
                found = super().header_fetch_parse(name, value)
                if len(parsed) < _PARSED:
                    parsed[key] = found
            return found

    return Policy(header_factory=Registry())  # policy.default is EmailPolicy() with its defaults


def header(msg: Message, key: str) -> str | None:
    """A header's value as the parser reads it; where the parser fails on it, its raw text."""
    try:
        value = msg.get(key)
    except _PARSER_ERRORS:
        value = next((raw for name, raw in msg.raw_items() if name.lower() == key.lower()), None)
    return None if value is None else " ".join(str(value).split())


def _size(part: Message) -> int:
    payload = part.get_payload(decode=False)
    length = len(payload) if isinstance(payload, (str, bytes)) else 0
    base64 = (header(part, "content-transfer-encoding") or "").strip().lower() == "base64"
    return length * 3 // 4 if base64 else length


def _walk(msg: Message, body: Message | None) -> tuple[list[Part], list[str]]:
    """The attachments, in order, without recursion; text parts without a file name are the body's
    alternatives, not attachments."""
    import mimetypes

    parts: list[Part] = []
    warnings: list[str] = []
    seen: set[str] = set()
    stack: list[tuple[Message, int]] = [(msg, 0)]
    visited = 0
    while stack:
        part, depth = stack.pop()
        visited += 1
        if visited > MAX_PARTS:
            warnings.append(f"more than {MAX_PARTS:,} MIME parts: the rest are not listed")
            break
        mime = part.get_content_type()
        if part.is_multipart() and mime != "message/rfc822":
            if depth >= MAX_DEPTH:
                warnings.append(f"MIME parts nested deeper than {MAX_DEPTH} levels not read")
                continue
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in reversed(children) if isinstance(child, Message))
            continue
        if part is body:
            continue
        filename = part.get_filename()
        if part.get_content_maintype() == "text" and not filename and part.get_content_disposition() != "attachment":
            continue
        name = filename or f"part-{len(parts) + 1}{mimetypes.guess_extension(mime) or '.bin'}"
        if mime == "message/rfc822" and not name.lower().endswith(".eml"):
            name += ".eml"
        name = web_parts.unique_name(name.replace("/", "_"), seen)
        inner = _attached(part)
        size = len(inner.as_bytes()) if inner is not None else _size(part)
        parts.append(Part(name, mime, size, part))
    return parts, warnings


def _attached(part: Message) -> Message | None:
    """The message a message/rfc822 part holds."""
    if part.get_content_type() != "message/rfc822":
        return None
    payload = part.get_payload()
    first = payload[0] if isinstance(payload, list) and payload else None
    return first if isinstance(first, Message) else None



def _body_text(mail: Mail) -> tuple[str, str | None]:
    """The body as text, and a warning when its charset could not be used."""
    body = mail.body
    if body is None:
        return "", None
    warning = None
    try:
        text = body.get_content()  # type: ignore[attr-defined]
    except (LookupError, ValueError, AssertionError) as exc:
        raw = body.get_payload(decode=True)
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else ""
        warning = f"the body's charset could not be used ({exc}): decoded as UTF-8, bad bytes as U+FFFD"
    if body.get_content_subtype() == "html":
        from boundread.formats.web.html import to_text

        text = to_text(str(text))
    return str(text), warning


def info(src: Source, req: Request) -> Details:
    mail = parse(src)
    text, warning = _body_text(mail)
    fields: dict[str, object] = {key.lower(): header(mail.msg, key) or None for key in _HEADERS}
    fields |= {"attachments": len(mail.parts), "attachments_bytes": sum(p.size for p in mail.parts),
               "body": mail.body.get_content_type() if mail.body is not None else None}
    details = Details(fields=fields, est_chars=len(text) + 400, estimated=True,
                      warnings=[*mail.warnings, *([warning] if warning else [])])
    details.next = [("extract", FILE)]
    if mail.parts:
        details.next.append(("list-zip", FILE))
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    mail = parse(src)
    outcome = Outcome(unit="lines", totals={"attachments": len(mail.parts)}, warnings=list(mail.warnings))
    for key in _HEADERS:
        if (value := header(mail.msg, key)) is not None and not sink.write(f"{key}: {value}\n"):
            break
    if mail.parts:
        sink.write(f"Attachments ({len(mail.parts):,}):\n")
        for part in mail.parts[:LISTED_IN_EXTRACT]:
            if not sink.write(f"  {part.name} ({part.mime}, {human_bytes(part.size)})\n"):
                break
        if len(mail.parts) > LISTED_IN_EXTRACT:
            sink.write(f"  ... {len(mail.parts) - LISTED_IN_EXTRACT:,} more: boundread list-zip "
                       f"{shlex.quote(src.name)}\n")
        sink.write(f"  (read one: boundread extract {shlex.quote(src.name)} --member "
                   f"{shlex.quote(mail.parts[0].name)})\n")
        outcome.more.append(("extract", FILE, "--member", mail.parts[0].name))
    text, warning = _body_text(mail)
    if warning:
        outcome.warnings.append(warning)
    sink.write("\n")
    for line in text.splitlines(keepends=True):
        if not sink.write(line):
            break
    outcome.done = "headers and body" + (f", {len(mail.parts):,} attachments listed" if mail.parts else "")
    return outcome


def listing(src: Source, req: Request) -> Listing:
    mail = parse(src)
    return web_parts.attachments("eml", [(p.name, p.size) for p in mail.parts], mail.warnings, req)


def read_member(src: Source, name: str, req: Request) -> bytes:
    mail = parse(src)
    part = next((p for p in mail.parts if p.name == name), None)
    if part is None:
        raise UsageError(f"no attachment {name!r} in {src.name}", f"run `boundread list-zip {shlex.quote(src.name)}`")
    cap = req.limits.max_member_bytes
    if part.size > cap:
        raise Refused(f"{name} is {human_bytes(part.size)}, more than {human_bytes(cap)}",
                      "raise --max-member-mb if you trust it")
    if (inner := _attached(part.message)) is not None:
        return inner.as_bytes()
    data = part.message.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""
