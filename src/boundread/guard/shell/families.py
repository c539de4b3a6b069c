"""Which module models a program, by its name, without importing the modules: guard-check loads a program
family (archives, converters, greps, jq...) only when the command runs one of its programs (issue 24: a plain
``ls -la`` loaded every family, ~0.2 ms each, on every call).

``FAMILY`` maps a name to the first family, in the order programs.run asks them, whose names hold it (``yes`` is a
dumper before it is a generator). tests/guard/test_program_families.py fails when this table and the modules'
own sets (``archives.PROGRAMS``, ``dumpers.DUMPERS``, ``greps.GREPS``...) differ: a program added to a module
goes here too.
"""

from __future__ import annotations

#: (family, its program names), in programs.run's order.
_NAMES: tuple[tuple[str, str], ...] = (
    ("archives", (
        "7z 7za 7zr 7zz brotli bsdtar bunzip2 bzip2 curl funzip gtar gunzip gzip lz4 lzip lzma lzop openssl "
        "pbzip2 pdftotext pigz tar unlzma unpigz unxz unzip unzstd xz zip zstd"
    )),
    ("converters", (
        "antiword catdoc catppt cmark cmark-gfm csvcut csvformat csvjoin csvjson csvlook csvsort csvstack "
        "csvtk djvutxt docx2md docx2txt docx2txt.pl elinks epub2txt html2text in2csv libreoffice links localc "
        "loimpress lowriter lynx markdown markdown_py marked markitdown md2html miller mlr mutool pandoc "
        "pdf2txt pdf2txt.py pdftohtml pdftops pptx2txt ps2ascii qsv rst2html rst2html.py rst2html5 rtf2txt "
        "soffice ssconvert textutil tsv-pretty unoconv unrtf w3m xan xls2csv xlsx2csv xlsx2txt xsltproc xsv"
    )),
    ("derive", (
        "cmp colordiff comm csplit diff diff3 icdiff join sdiff split wdiff"
    )),
    ("editors", (
        "ed emacs ex nvim red vi view vim vim.basic vim.tiny"
    )),
    ("dumpers", (
        "base32 base64 basenc bat batcat bsdcat bzcat cat cat-v ccat column cut dos2unix expand fmt fold gron gzcat "
        "hd hexdump iconv less look lz4cat lzcat more most nl od paste pr pv pygmentize rev shuf sort strings tac tr "
        "unexpand uniq unix2dos vis xmllint xxd xzcat zcat zless zmore zstdcat"
    )),
    ("greps", (
        "ack ag bzgrep egrep fgrep git-grep grep rg xzgrep zegrep zfgrep zgrep zipgrep"
    )),
    ("remote", (
        "aws docker docker-compose gcloud journalctl kubectl nerdctl oc podman podman-compose"
    )),
    ("generators", (
        "jot seq yes"
    )),
    ("jsonprint", (
        "gojq jaq jq yq"
    )),
    ("databases", (
        "duckdb litecli sqlite-utils sqlite3"
    )),
)

FAMILY: dict[str, str] = {}
for _family, _names in _NAMES:
    for _name in _names.split():
        FAMILY.setdefault(_name, _family)
del _family, _names, _name
