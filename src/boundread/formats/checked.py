"""Every handler module, typed as the contract's :class:`Handler`: mypy checks each one's ``KINDS``,
``info`` and ``extract`` against the Protocol here. Imported only by the test that checks this list
against the registry, never by a command (it would load every handler)."""

from __future__ import annotations

from boundread.contract.handler import Handler
from boundread.formats import binary, image
from boundread.formats.archives import handler as archives
from boundread.formats.columnar import arrow
from boundread.formats.columnar import handler as columnar
from boundread.formats.database import handler as database
from boundread.formats.office import docx, odp, pptx
from boundread.formats.pdf import handler as pdf
from boundread.formats.sheets import handler as sheets
from boundread.formats.structured import handler as structured
from boundread.formats.text import handler as text
from boundread.formats.web import epub, mail, notebook, outlook, page

#: In the registry's order.
HANDLERS: tuple[Handler, ...] = (pdf, docx, pptx, odp, database, columnar, arrow, sheets, archives, image, structured,
                                 notebook, epub, mail, page, outlook, text, binary)
