"""A Parquet file's frame, read with the standard library: ``PAR1`` at both ends and the footer's length in the
4 bytes before the last magic. Enough for ``info`` to say what the file is without pyarrow, and to refuse a
footer that claims more bytes than the file holds before pyarrow is asked to parse it.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundread.contract.model import Source
from boundread.errors import Corrupt, Encrypted, Refused

MAGIC = b"PAR1"
ENCRYPTED = b"PARE"  # Parquet Modular Encryption, encrypted footer mode
#: a footer this large is refused: 10,000 row groups of 20 columns take ~10 MB of footer
MAX_FOOTER = 256 * 1024 * 1024
EXTRA = "pip install 'boundread[parquet]'"


@dataclass(frozen=True)
class Frame:
    size: int
    footer: int  # bytes of the Thrift footer (FileMetaData)


def frame(src: Source) -> Frame:
    """The checked frame, or a one-line Corrupt/Refused naming what is wrong."""
    size = src.size
    if size < 12:
        raise Corrupt(f"{src.name}: {size} bytes, too short for a Parquet file (PAR1 ... footer PAR1)",
                      "the file is truncated: copy it again")
    with src.open() as stream:
        head = stream.read(4)
        stream.seek(size - 8)
        tail = stream.read(8)
    if head == ENCRYPTED and tail[4:] == ENCRYPTED:
        raise Encrypted(f"{src.name}: an encrypted Parquet file (PARE: its footer is encrypted)",
                        "decrypt it with the keys it was written with (pyarrow.parquet's CryptoFactory), "
                        "then read the plain copy")
    if head != MAGIC:
        raise Corrupt(f"{src.name}: does not start with PAR1", "not a Parquet file: `boundread info FILE` says what")
    if len(tail) != 8 or tail[4:] != MAGIC:
        raise Corrupt(f"{src.name}: no PAR1 at the end (truncated, or still being written)",
                      "copy the file again once the writer has closed it")
    footer = int.from_bytes(tail[:4], "little")
    if footer + 12 > size:
        raise Corrupt(f"{src.name}: the footer claims {footer:,} bytes but the file holds {size:,}",
                      "the file is truncated or damaged: copy it again")
    if footer > MAX_FOOTER:
        raise Refused(f"{src.name}: a {footer:,}-byte footer (over {MAX_FOOTER:,})",
                      "rewrite the file with fewer row groups")
    return Frame(size, footer)
