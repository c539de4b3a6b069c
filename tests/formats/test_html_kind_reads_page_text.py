"""A saved web page (.html, .htm, .xhtml) is kind ``html`` (issue 25 item 5): ``extract`` gives its readable text
in its declared charset (scripts, styles and chrome out), bounded by --max-chars; --lines and --grep number and
filter that text (a cut read's ``next`` goes on in it), --tail reads the raw file's last lines; --encoding
applies; a big page denied whole by the guard is pointed at ``extract``, not at windows of raw lines."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from tests.helpers import run, run_json

from boundread.guard import check_read
from boundread.guard.config import GuardConfig

PAGE = ('<html><head><meta charset="koi8-r"><title>Страница</title><script>SCRIPTWORD()</script>'
        "<style>p {color: red}</style></head>\n<body><nav>МЕНЮ</nav>\n<h1>Заголовок</h1>\n"
        "<p>Первый абзац.</p>\n<p>Второй абзац.</p>\n<footer>ПОДВАЛ</footer></body></html>\n")


def _page(folder: Path, name: str = "page.html") -> Path:
    path = folder / name
    path.write_bytes(PAGE.encode("koi8-r"))
    return path


@pytest.mark.parametrize("name", ["page.html", "page.htm", "page.xhtml", "PAGE.HTML"])
def test_a_web_page_is_kind_html_with_its_charset(tmp_path: Path, name: str) -> None:
    code, data = run_json("info", str(_page(tmp_path, name)))
    assert code == 0
    assert data["kind"] == "html"
    assert data["fields"]["encoding"] == "koi8-r" and data["fields"]["encoding_from"] == "declared"
    assert data["fields"]["title"] == "Страница"
    assert not any("named like" in w for w in data["warnings"])


def test_extract_is_the_visible_text_without_scripts_or_chrome(tmp_path: Path) -> None:
    code, data = run_json("extract", str(_page(tmp_path)), "--stdout")
    assert code == 0
    text = data["text"]
    assert "# Заголовок" in text and "Первый абзац." in text and "Второй абзац." in text
    for gone in ("SCRIPTWORD", "color: red", "МЕНЮ", "ПОДВАЛ", "<p>", "charset"):
        assert gone not in text


def test_extract_is_bounded_by_max_chars_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "long.html"
    path.write_text("<html><body>" + "".join(f"<p>paragraph {n} words</p>" for n in range(5_000)) + "</body></html>",
                    encoding="utf-8")
    code, data = run_json("extract", str(path), "--stdout", "--max-chars", "2000")
    assert code == 0
    assert len(data["text"]) <= 2000 and data["truncated"]
    assert "paragraph 0 words" in data["text"] and "paragraph 4999" not in data["text"]


def test_lines_and_grep_read_the_text_and_a_cut_read_goes_on_in_it(tmp_path: Path) -> None:
    path = tmp_path / "long.html"
    path.write_text("<html><head><script>SCRIPTWORD()</script></head><body>"
                    + "".join(f"<p>para {n}</p>\n" for n in range(3_000)) + "</body></html>", encoding="utf-8")
    code, data = run_json("extract", str(path), "--stdout", "--grep", "SCRIPTWORD|para 7$")
    assert code == 0 and data["text"].strip().splitlines()[-1].endswith("para 7")
    assert "SCRIPTWORD" not in data["text"]
    code, data = run_json("extract", str(path), "--stdout", "--max-chars", "1000")
    assert code == 0 and data["truncated"]
    resume = shlex.split(next(step for step in data["next"] if "--lines" in step))
    first = resume[resume.index("--lines") + 1]
    code, more = run_json("extract", str(path), "--stdout", "--lines", first)
    assert code == 0
    seen = data["text"].split("\n\n")[-2].strip()  # the last whole paragraph of the first read
    following = more["text"].strip().splitlines()[0]
    assert seen.startswith("para ") and following.startswith("para ") and "<p>" not in more["text"]
    assert int(following.split()[-1]) > int(seen.split()[-1])  # it goes on in the text, not in the raw markup


def test_tail_reads_the_raw_file_decoded(tmp_path: Path) -> None:
    code, data = run_json("extract", str(_page(tmp_path)), "--stdout", "--tail", "1")
    assert code == 0 and PAGE.splitlines()[-1] in data["text"]  # markup and all, the declared KOI8-R decoded


def test_encoding_overrides_the_declared_charset(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes("<html><body><p>Текст абзаца.</p></body></html>".encode("cp1251"))  # nothing declared
    code, data = run_json("extract", str(path), "--stdout", "--encoding", "cp1251")
    assert code == 0 and "Текст абзаца." in data["text"]


def test_text_in_an_unclosed_head_is_the_body(tmp_path: Path) -> None:
    path = tmp_path / "bare.html"
    path.write_bytes('<html><head><meta charset="cp1251"><title>T</title>\nТекст без body.\n'.encode("cp1251"))
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "Текст без body." in data["text"] and "T\n" not in data["text"]


def test_options_of_other_kinds_are_refused_on_a_page(tmp_path: Path) -> None:
    result = run("extract", str(_page(tmp_path)), "--layout")
    assert result.exit_code != 0
    assert "--layout does not apply to" in result.stderr and "html" in result.stderr


def test_a_big_page_denied_whole_is_pointed_at_its_text(tmp_path: Path) -> None:
    path = tmp_path / "big.html"
    path.write_text("<html><head><script>" + "x=1;" * 5_000 + "</script></head><body>"
                    + "<p>readable words here</p>" * 2_000 + "</body></html>", encoding="utf-8")
    decision = check_read(str(path), cwd=tmp_path, config=GuardConfig(text_max_bytes=4_096))
    assert decision.decision == "deny"
    assert "web page" in decision.reason and "boundread pages big.html 1-5 --max-chars 20000" in decision.reason
    assert "--lines 1-" not in decision.reason
    line = next(x.strip() for x in decision.reason.splitlines() if x.strip().startswith("boundread pages big.html"))
    words = shlex.split(line)[1:]
    code, data = run_json(*[str(path) if w == "big.html" else w for w in words])  # one section: no headings
    assert code == 0 and 0 < data["chars"] <= 20_000 and data["truncated"]
    assert "readable words here" in Path(data["output"]).read_text(encoding="utf-8")  # the text, not the script
