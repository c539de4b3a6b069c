"""Outlook messages (``.msg``, an OLE compound file): headers, the body, and the attachments as members.

``info mail.msg`` gives subject, from, to, cc, date, the body's kind and size and the attachments; ``extract
mail.msg`` writes the headers, the attachment list, then the body: the plain-text body (PR_BODY), else the HTML
body (PR_HTML) as text, else the compressed RTF body (PR_RTF_COMPRESSED): the HTML or text it encapsulates, or
its RTF stripped to text with a warning. ``list-zip`` lists the attachments and ``extract --member NAME`` reads
one through the handler of its own kind, as for an .eml; an attached message (PR_ATTACH_METHOD 5) is a member
``NAME.msg``, written out as a compound file of its own. An attachment by reference (methods 2-4, 7: a path
or a web address, not the file) is listed with its target, and ``--member`` names the target instead of an
empty read.

Bounded: the compound file is read through formats/_cfb (each table and stream bounded, damage one Corrupt
line); at most ``MAX_ATTACHMENTS`` attachments and ``MAX_RECIPIENTS`` recipients are read, a body at most
``BODY_BYTES``; the listing is paged by --max-entries.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from boundread.contract.model import FILE, Details, Listing, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt, Refused, Unsupported, UsageError
from boundread.formats._cfb.props import (
    CHILD_HEADER,
    MESSAGE_HEADER,
    PS_PUBLIC_STRINGS,
    PSETID_APPOINTMENT,
    Props,
    named,
    texts,
)
from boundread.formats._cfb.reader import Compound, Node
from boundread.formats.web import parts
from boundread.units import MB, human_bytes

KINDS: tuple[str, ...] = ("msg",)
MAX_ATTACHMENTS = 20_000
MAX_RECIPIENTS = 500
BODY_BYTES = 32 * MB
LISTED_IN_EXTRACT = 50  # attachments named by extract; list-zip pages through all
_BODY, _HTML, _RTF = 0x1000, 0x1013, 0x1009
_HEADERS = ("From", "To", "Cc", "Date", "Subject")
_BY_REFERENCE = (2, 3, 4, 7)  # PR_ATTACH_METHOD: by reference, resolve, reference only, web reference
#: Named properties shown as headers when the message has them: a meeting's place and times (MS-OXPROPS
#: PidLidLocation, PidLidAppointmentStartWhole, PidLidAppointmentEndWhole), then its categories (PidNameKeywords)
_APPOINTMENT = (("Location", 0x8208, False), ("Start", 0x820D, True), ("End", 0x820E, True))


@dataclass(frozen=True)
class Attachment:
    name: str
    mime: str
    size: int
    data: Node | None  # the stream of its bytes, or the storage of an attached message / OLE object
    message: bool  # an attached Outlook message (method 5), handed on as a .msg
    link: str | None = None  # attached by reference: the path or address it names (the file is not inside)

    @property
    def described(self) -> str:
        """``name (type, size)``, or ``name (type, by reference to PATH)``."""
        held = human_bytes(self.size) if self.link is None else f"by reference to {self.link}" if self.link else \
            "by reference, to no path it names"
        return f"{self.name} ({self.mime}, {held})"


@dataclass
class Message:
    cfb: Compound
    props: Props
    attachments: list[Attachment]
    warnings: list[str]


@contextmanager
def opened(src: Source) -> Iterator[Message]:
    """The message in ``src``, its attachments listed; the file stays open while it is used."""
    with src.open() as fh:
        cfb = Compound(fh, src.name)
        props = Props(cfb, cfb.root, MESSAGE_HEADER)
        warnings: list[str] = []
        if len(props.attachments) > MAX_ATTACHMENTS:
            warnings.append(f"{len(props.attachments):,} attachments: the first {MAX_ATTACHMENTS:,} are listed")
        yield Message(cfb, props, _attachments(cfb, props), warnings)


def _attachments(cfb: Compound, props: Props) -> list[Attachment]:
    import mimetypes

    out: list[Attachment] = []
    seen: set[str] = set()
    for number, node in enumerate(props.attachments[:MAX_ATTACHMENTS], 1):
        att = Props(cfb, node, CHILD_HEADER, props.codepage)
        obj = att.object(0x3701)
        message = obj is not None and att.long(0x3705) == 5
        name = att.text(0x3707, 2048) or att.text(0x3704, 2048) or att.text(0x3001, 2048) or ""
        name = " ".join(name.replace("/", "_").replace("\\", "_").split())[:200] or f"attachment-{number}"
        if message and not name.lower().endswith(".msg"):
            name += ".msg"
        mime = (att.text(0x370E, 256) or "").strip() or (
            "application/vnd.ms-outlook" if message else mimetypes.guess_type(name)[0] or "application/octet-stream")
        data = obj if obj is not None else att.streams.get((0x3701, 0x0102))
        size = (data.size if not data.is_storage else cfb.total(data)) if data is not None else 0
        link = None
        if data is None and att.long(0x3705) in _BY_REFERENCE:  # PR_ATTACH_LONG_PATHNAME, PR_ATTACH_PATHNAME
            link = " ".join((att.text(0x370D, 2048) or att.text(0x3708, 2048) or "").split())
        out.append(Attachment(parts.unique_name(name, seen), mime, size, data, message, link))
    return out



def _address(name: str | None, address: str | None) -> str | None:
    address = address if address and "@" in address else None
    if name and address and name != address:
        return f"{name} <{address}>"
    return address or name or None


def headers(msg: Message) -> dict[str, str | None]:
    """From, To, Cc, Date and Subject as an email shows them, then a meeting's Location, Start and End and the
    Categories where the message has them."""
    from email.utils import format_datetime

    props = msg.props
    sender = _address(props.text(0x0C1A) or props.text(0x0042),
                      props.text(0x5D01) or props.text(0x0C1F) or props.text(0x0065))
    found: dict[str, list[str]] = {"To": [], "Cc": []}
    for node in props.recipients[:MAX_RECIPIENTS]:
        rec = Props(msg.cfb, node, CHILD_HEADER, props.codepage)
        field = {1: "To", 2: "Cc"}.get(rec.long(0x0C15) or 1)
        shown = _address(rec.text(0x3001), rec.text(0x39FE) or rec.text(0x3003))
        if field and shown:
            found[field].append(shown)
    when = props.time(0x0039) or props.time(0x0E06)
    if sender is None or "@" not in sender:  # an Exchange address: the internet headers, where kept, have SMTP's
        sender = _transport(props, "From") or sender
    usual: dict[str, str | None] = {
        "From": sender, "To": ", ".join(found["To"]) or props.text(0x0E04) or None,
        "Cc": ", ".join(found["Cc"]) or props.text(0x0E03) or None,
        "Date": format_datetime(when) if when else None, "Subject": props.text(0x0037)}
    return usual | _named(msg)


def _named(msg: Message) -> dict[str, str | None]:
    """A meeting's Location, Start and End, and Categories: named properties, present only when the message has
    them (the ids they have in this file come from its name-to-id map)."""
    from email.utils import format_datetime

    ids = named(msg.cfb)
    found: dict[str, str | None] = {}
    for label, lid, is_time in _APPOINTMENT:
        if (pid := ids.get((PSETID_APPOINTMENT, lid))) is None:
            continue
        if is_time:
            when = msg.props.time(pid)
            value = format_datetime(when) if when else None
        else:
            value = msg.props.text(pid, 4096)
        if value and value.strip():
            found[label] = value
    if (pid := ids.get((PS_PUBLIC_STRINGS, "Keywords"))) is not None and (categories := texts(msg.props, pid)):
        found["Categories"] = ", ".join(categories)
    return found


def _transport(props: Props, key: str) -> str | None:
    """A header of the internet headers the message was received with (PR_TRANSPORT_MESSAGE_HEADERS)."""
    raw = props.text(0x007D, 256 * 1024)
    if not raw:
        return None
    from email import policy
    from email.parser import HeaderParser

    from boundread.formats.web.mail import header

    return header(HeaderParser(policy=policy.default).parsestr(raw, headersonly=True), key)


def body(msg: Message) -> tuple[str, str, list[str]]:
    """The body as text, the kind it was kept as, and warnings."""
    props = msg.props
    warnings: list[str] = []
    cut = f"the body is longer than the {human_bytes(BODY_BYTES)} boundread reads of it: the rest is not read"
    if (props.size(_BODY) or 0) > 0:
        warnings += [cut] if (props.size(_BODY) or 0) > BODY_BYTES else []
        return props.text(_BODY, BODY_BYTES) or "", "text/plain", warnings
    from boundread.formats.web.html import to_text

    if (props.size(_HTML) or 0) > 0:
        warnings += [cut] if (props.size(_HTML) or 0) > BODY_BYTES else []
        raw = props.binary(_HTML, BODY_BYTES)
        html = raw.decode(props.codepage, "replace") if raw is not None else props.text(_HTML, BODY_BYTES) or ""
        return to_text(html), "text/html", warnings
    compressed = props.binary(_RTF, BODY_BYTES)
    if not compressed:
        return "", "none", warnings
    from boundread.formats._cfb import rtf

    raw, was_cut = rtf.decompress(compressed, BODY_BYTES)
    warnings += [cut] if was_cut else []
    carried = rtf.encapsulated(raw)
    text = rtf.to_text(raw)
    if carried == "html":
        return to_text(text), "text/html (in RTF)", warnings
    if carried == "rtf":
        warnings.append("the body is RTF only, stripped to text roughly: tables and lists lose their shape")
    return text.replace("\r\n", "\n"), f"text/{'plain' if carried == 'text' else 'rtf'} (in RTF)", warnings


def info(src: Source, req: Request) -> Details:
    with opened(src) as msg:
        fields: dict[str, object] = {key.lower(): value for key, value in headers(msg).items()}
        size = msg.props.size(_BODY) or msg.props.size(_HTML) or msg.props.size(_RTF) or 0
        kind = "text/plain" if msg.props.size(_BODY) else "text/html" if msg.props.size(_HTML) else (
            "rtf" if size else None)
        fields |= {"class": msg.props.text(0x001A, 256), "body": kind, "body_bytes": size,
                   "attachments": len(msg.attachments), "attachments_bytes": sum(a.size for a in msg.attachments)}
        wide = (_BODY, 0x001F) in msg.props.streams  # a UTF-16 body: two bytes a character
        details = Details(fields=fields, est_chars=size // (2 if wide else 1) + 400,
                          estimated=True, warnings=list(msg.warnings))
        details.fields["attachment_list"] = [a.described for a in msg.attachments[:LISTED_IN_EXTRACT]]
    details.next = [("extract", FILE)]
    if msg.attachments:
        details.next.append(("list-zip", FILE))
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    with opened(src) as msg:
        outcome = Outcome(unit="lines", totals={"attachments": len(msg.attachments)}, warnings=list(msg.warnings))
        for key, value in headers(msg).items():
            if value is not None and not sink.write(f"{key}: {' '.join(value.split())}\n"):
                break
        atts = msg.attachments
        if atts:
            sink.write(f"Attachments ({len(atts):,}):\n")
            for att in atts[:LISTED_IN_EXTRACT]:
                if not sink.write(f"  {att.described}\n"):
                    break
            operand = shlex.quote(src.name)
            if len(atts) > LISTED_IN_EXTRACT:
                sink.write(f"  ... {len(atts) - LISTED_IN_EXTRACT:,} more: boundread list-zip {operand}\n")
            sink.write(f"  (read one: boundread extract {operand} --member {shlex.quote(atts[0].name)})\n")
            outcome.more.append(("extract", FILE, "--member", atts[0].name))
        text, _, warnings = body(msg)
    outcome.warnings += warnings
    sink.write("\n")
    for line in text.splitlines(keepends=True):
        if not sink.write(line):
            break
    outcome.done = "headers and body" + (f", {len(atts):,} attachments listed" if atts else "")
    return outcome


def listing(src: Source, req: Request) -> Listing:
    with opened(src) as msg:
        atts, warnings = msg.attachments, msg.warnings
    return parts.attachments("msg", [(a.name, a.size) for a in atts], warnings, req)


def read_member(src: Source, name: str, req: Request) -> bytes:
    with opened(src) as msg:
        att = next((a for a in msg.attachments if a.name == name), None)
        if att is None:
            raise UsageError(f"no attachment {name!r} in {src.name}",
                             f"run `boundread list-zip {shlex.quote(src.name)}`")
        cap = req.limits.max_member_bytes
        if att.size > cap:
            raise Refused(f"{name} is {human_bytes(att.size)}, more than {human_bytes(cap)}",
                          "raise --max-member-mb if you trust it")
        if att.link is not None:
            target = f"a link to {att.link}" if att.link else "a link that names no path"
            raise Unsupported(f"{name} is attached by reference: {src.name} holds {target}, not the file",
                              "read the file where the link points, if you can reach it; else ask the sender")
        if att.data is None:
            raise Corrupt(f"{name} in {src.name} has no data (its stream is missing)",
                          "the message is damaged or was saved without its attachments")
        if not att.data.is_storage:
            return msg.cfb.read(att.data, cap)
        from boundread.formats._cfb.writer import subtree, write

        return write(subtree(msg.cfb, att.data, cap, embedded=att.message))
