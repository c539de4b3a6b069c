"""The options several commands share, declared once: each command's signature names these types, so
extract, view, pages and sheets cannot drift apart in a flag, a bound or a help text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from boundread.cli import complete
from boundread.cli.boundary import AtLeast, offer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object (schema 1) on stdout.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", metavar="SECONDS", click_type=AtLeast(0.1, float),
                                           help="Stop after this many seconds (exit 8).")]
PasswordOpt = Annotated[str | None, typer.Option("--password", metavar="PASSWORD",
                                                 help="Password for an encrypted pdf, zip or 7z.")]
OutOpt = Annotated[Path | None, typer.Option("-o", "--output", metavar="PATH",
                                             help="Write the text here (default: ./boundread-out/); - for stdout.")]
StdoutOpt = Annotated[bool, typer.Option("--stdout", help="Print the text on stdout as it is extracted; "
                                                           "the summary goes to stderr.")]
MaxCharsOpt = Annotated[int, typer.Option("--max-chars", metavar="N", click_type=AtLeast(1),
                                           help="Stop after this many characters (~4 per token).")]
MaxLinesOpt = Annotated[int | None, typer.Option("--max-lines", metavar="N", click_type=AtLeast(1),
                                                 help="Stop after this many output lines.")]
LayoutOpt = Annotated[bool, typer.Option("--layout", help="Keep the physical layout (table columns on one line).")]
EngineOpt = Annotated[str, typer.Option("--engine", metavar="NAME", autocompletion=offer("auto", "pdfium", "pdfminer"),
                                        help="PDF text engine: auto (pdfium), pdfium or pdfminer.")]
OcrOpt = Annotated[str, typer.Option("--ocr", metavar="MODE", autocompletion=offer("auto", "force", "never"),
                                     help="OCR (Tesseract): auto (pages without text, images), force or never.")]
OcrLangOpt = Annotated[str, typer.Option("--ocr-lang", metavar="LANGS",
                                         help="Tesseract languages, several joined with +: eng+deu.")]
FormatOpt = Annotated[str, typer.Option("--format", metavar="NAME", autocompletion=offer("csv", "tsv", "markdown"),
                                        help="Rows as csv, tsv or markdown.")]
RowsOpt = Annotated[str | None, typer.Option("--rows", metavar="A-B", help="Sheet rows A-B (1-based), e.g. 201-400.")]
MaxRowsOpt = Annotated[int, typer.Option("--max-rows", metavar="N", click_type=AtLeast(1),
                                         help="At most this many rows per sheet.")]
PathOpt = Annotated[str | None, typer.Option("--path", metavar="PATH",
                                             help="JSON/JSONL: only what this jq-like path selects, pretty: "
                                                  ".items[100:120], .meta.version, .items[].id.")]
SqlOpt = Annotated[str | None, typer.Option("--sql", metavar="SELECT",
                                            help="SQLite: one read-only statement, rows and cells bounded: "
                                                 "'SELECT * FROM t WHERE x > 1'.")]
EncodingOpt = Annotated[str | None, typer.Option("--encoding", metavar="NAME",
                                                 help="Text: decode with this Python codec (cp1251, koi8-r, "
                                                      "shift_jis) instead of the guessed one.")]
MaxColsOpt = Annotated[int, typer.Option("--max-cols", metavar="N", click_type=AtLeast(1),
                                         help="At most this many columns.")]

#: the selectors extract and view share (the text's parts a read narrows to)
PagesOpt = Annotated[str | None, typer.Option("--pages", metavar="RANGE", help="PDF pages / pptx slides, e.g. 1-5,8.")]
SheetOpt = Annotated[list[str] | None, typer.Option("--sheet", metavar="SHEET", autocompletion=complete.sheet_names,
                                                    help="Sheet name or 1-based index; repeatable.")]
LinesOpt = Annotated[str | None, typer.Option("--lines", metavar="A-B",
                                              help="Only lines A-B of the text (A- for the rest).")]
HeadOpt = Annotated[int | None, typer.Option("--head", metavar="N", click_type=AtLeast(1),
                                             help="Only the first N lines of the text.")]
TailOpt = Annotated[int | None, typer.Option("--tail", metavar="N", click_type=AtLeast(1),
                                             help="Only the last N lines of a text file, read from its end.")]
GrepOpt = Annotated[str | None, typer.Option("--grep", metavar="PATTERN",
                                             help="Only lines matching this regular expression.")]
IgnoreCaseOpt = Annotated[bool, typer.Option("-i", "--ignore-case", help="Case-insensitive --grep.")]
ContextOpt = Annotated[int, typer.Option("--context", "-C", metavar="N", click_type=AtLeast(0),
                                         help="Lines of context around each match.")]
MaxMatchesOpt = Annotated[int, typer.Option("--max-matches", metavar="N", click_type=AtLeast(1),
                                            help="Stop after this many matches.")]
MemberOpt = Annotated[str | None, typer.Option("--member", metavar="NAME", autocompletion=complete.member_names,
                                               help="One member of an archive, read in memory.")]
