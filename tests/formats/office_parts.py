"""Fixture builders for the office text that lives outside the body: SmartArt data parts, chart parts and
comment parts, written as the minimal XML PowerPoint, Word and Excel write (LibreOffice is not needed)."""

from __future__ import annotations

import io
import re
import zipfile

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def rezip(data: bytes, replace: dict[str, bytes]) -> bytes:
    """The zip with some members replaced or added."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename not in replace:
                dst.writestr(info, src.read(info))
        for name, body in replace.items():
            dst.writestr(name, body)
    return out.getvalue()


def add_rels(rels: bytes, *entries: tuple[str, str, str]) -> bytes:
    """(id, type's last path, target) added to a .rels part."""
    extra = "".join(f'<Relationship Id="{rid}" Type="{kind}" Target="{target}"/>' for rid, kind, target in entries)
    return rels.replace(b"</Relationships>", extra.encode() + b"</Relationships>")


def empty_rels() -> bytes:
    ns = "http://schemas.openxmlformats.org/package/2006/relationships"
    return f'<?xml version="1.0"?><Relationships xmlns="{ns}"></Relationships>'.encode()


def _pt(model: str, text: str | None, kind: str = "") -> str:
    body = f"<a:p><a:r><a:t>{text}</a:t></a:r></a:p>" if text else "<a:p/>"
    typ = f' type="{kind}"' if kind else ""
    return f'<dgm:pt modelId="{model}"{typ}><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/>{body}</dgm:t></dgm:pt>'


def diagram_data(tree: list[tuple[str, str, str, int]]) -> bytes:
    """A dgm:dataModel: (modelId, text, parent modelId, order) rows under a doc point "D". Points are written
    in reverse so that only the connections give the reading order; a presentation point and transitions
    with text are written too (they must not be read)."""
    points = [_pt("D", None, "doc")] + [_pt(m, t) for m, t, _p, _o in reversed(tree)]
    points += [_pt("P1", "PRES-POINT-NOT-TEXT", "pres"), _pt("T1", "TRANSITION-NOT-TEXT", "parTrans")]
    cxns = [f'<dgm:cxn modelId="c{m}" srcId="{p}" destId="{m}" srcOrd="{o}" destOrd="0"/>' for m, _t, p, o in tree]
    cxns.append('<dgm:cxn modelId="cp" type="presOf" srcId="A" destId="P1" srcOrd="0" destOrd="0"/>')
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:dataModel xmlns:dgm="{DGM}" '
            f'xmlns:a="{A}"><dgm:ptLst>{"".join(points)}</dgm:ptLst><dgm:cxnLst>{"".join(cxns)}</dgm:cxnLst>'
            "<dgm:bg/><dgm:whole/></dgm:dataModel>").encode()


def smartart_frame(rid: str, ns_p: str = "p") -> str:
    """A graphicFrame (pptx: p:graphicFrame) whose graphic is a diagram with data relationship ``rid``."""
    return (f'<{ns_p}:graphicFrame><{ns_p}:nvGraphicFramePr><{ns_p}:cNvPr id="90" name="Diagram"/>'
            f'<{ns_p}:cNvGraphicFramePr/><{ns_p}:nvPr/></{ns_p}:nvGraphicFramePr><{ns_p}:xfrm><a:off x="0" y="0"/>'
            f'<a:ext cx="1" cy="1"/></{ns_p}:xfrm><a:graphic xmlns:a="{A}"><a:graphicData uri="{DGM}">'
            f'<dgm:relIds xmlns:dgm="{DGM}" xmlns:r="{R}" r:dm="{rid}" r:lo="{rid}lo" r:qs="{rid}qs" '
            f'r:cs="{rid}cs"/></a:graphicData></a:graphic></{ns_p}:graphicFrame>')


def chart_xml(title: str, series: list[str], categories: list[str], axes: tuple[str, str] = ("", "")) -> bytes:
    """A bar chart part with a title, named series over shared categories and optional axis titles."""
    def rich(text: str) -> str:
        return f"<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p></c:rich></c:tx></c:title>"

    cats = "".join(f'<c:pt idx="{i}"><c:v>{c}</c:v></c:pt>' for i, c in enumerate(categories))
    vals = "".join(f'<c:pt idx="{i}"><c:v>{i * 7}</c:v></c:pt>' for i in range(len(categories)))
    sers = "".join(
        f'<c:ser><c:idx val="{n}"/><c:order val="{n}"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache>'
        f'<c:ptCount val="1"/><c:pt idx="0"><c:v>{name}</c:v></c:pt></c:strCache></c:strRef></c:tx>'
        f'<c:cat><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:ptCount val="{len(categories)}"/>{cats}'
        f'</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2</c:f><c:numCache>'
        f'<c:ptCount val="{len(categories)}"/>{vals}</c:numCache></c:numRef></c:val></c:ser>'
        for n, name in enumerate(series))
    cat_ax = f'<c:catAx><c:axId val="1"/>{rich(axes[0]) if axes[0] else ""}</c:catAx>'
    val_ax = f'<c:valAx><c:axId val="2"/>{rich(axes[1]) if axes[1] else ""}</c:valAx>'
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace xmlns:c="{C}" xmlns:a="{A}" '
            f'xmlns:r="{R}"><c:chart>{rich(title) if title else ""}<c:autoTitleDeleted val="0"/><c:plotArea>'
            f'<c:barChart><c:barDir val="col"/>{sers}<c:axId val="1"/><c:axId val="2"/></c:barChart>{cat_ax}'
            f"{val_ax}</c:plotArea></c:chart></c:chartSpace>").encode()


def chart_frame_inline(rid: str) -> str:
    """The a:graphic of a chart (docx inline / xlsx anchor / pptx frame body)."""
    return (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{C}"><c:chart xmlns:c="{C}" xmlns:r="{R}" '
            f'r:id="{rid}"/></a:graphicData></a:graphic>')


def insert_before(xml: bytes, closing: str, fragment: str) -> bytes:
    """``fragment`` inserted before the last ``closing`` tag."""
    at = xml.rindex(closing.encode())
    return xml[:at] + fragment.encode() + xml[at:]


def ns_decl(xml: bytes, prefix: str, uri: str) -> bytes:
    """The root element declares ``prefix`` (once)."""
    if f"xmlns:{prefix}=".encode() in xml:
        return xml
    return re.sub(rb"(<[A-Za-z:]+ )", lambda m: m.group(1) + f'xmlns:{prefix}="{uri}" '.encode(), xml, count=1)


W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
V = "urn:schemas-microsoft-com:vml"


def text_box_paragraph(text: str) -> str:
    """A w:p anchoring a text box the way Word 2010+ writes it: a wps shape in mc:Choice and the same text as a
    VML text box in mc:Fallback (older readers, mammoth among them, read the fallback)."""
    box = f'<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>'
    choice = (f'<w:drawing><wp:anchor xmlns:wp="{WP}"><wp:docPr id="5" name="Text Box 5"/><a:graphic xmlns:a="{A}">'
              f'<a:graphicData uri="{WPS}"><wps:wsp xmlns:wps="{WPS}"><wps:txbx>{box}</wps:txbx><wps:bodyPr/>'
              f"</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>")
    fallback = f'<w:pict><v:shape xmlns:v="{V}"><v:textbox>{box}</v:textbox></v:shape></w:pict>'
    return (f'<w:p><w:r><mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="wps">{choice}</mc:Choice>'
            f"<mc:Fallback>{fallback}</mc:Fallback></mc:AlternateContent></w:r></w:p>")


def graphic_paragraph(graphic: str) -> str:
    """A w:p with one inline drawing holding ``graphic`` (an a:graphic element)."""
    return (f'<w:p><w:r><w:drawing><wp:inline xmlns:wp="{WP}"><wp:extent cx="1" cy="1"/><wp:docPr id="7" '
            f'name="Graphic 7"/>{graphic}</wp:inline></w:drawing></w:r></w:p>')


def smartart_graphic(rid: str) -> str:
    return (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" xmlns:r="{R}" '
            f'r:dm="{rid}" r:lo="{rid}lo" r:qs="{rid}qs" r:cs="{rid}cs"/></a:graphicData></a:graphic>')


ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'
)


def odf_chart(title: str, series: list[str], categories: list[str], axes: tuple[str, str] = ("", "")) -> bytes:
    """An ODF chart sub-document as LibreOffice writes it: titles as text:p, labels in its local table."""
    def cell(text: str) -> str:
        return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'

    def axis(dim: str, text: str) -> str:
        inner = f"<chart:title><text:p>{text}</text:p></chart:title>" if text else ""
        return f'<chart:axis chart:dimension="{dim}">{inner}</chart:axis>'

    head = "<table:table-row>" + cell("") + "".join(cell(s) for s in series) + "</table:table-row>"
    rows = "".join("<table:table-row>" + cell(c) + "".join(
        f'<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p></table:table-cell>'
        for n in range(len(series))) + "</table:table-row>" for c in categories)
    sers = "".join('<chart:series chart:class="chart:bar"/>' for _ in series)
    return (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODF_NS}><office:body><office:chart>'
            f'<chart:chart chart:class="chart:bar"><chart:title><text:p>{title}</text:p></chart:title>'
            f"<chart:plot-area>{axis('x', axes[0])}{axis('y', axes[1])}{sers}</chart:plot-area>"
            f'<table:table table:name="local-table"><table:table-header-rows>{head}</table:table-header-rows>'
            f"<table:table-rows>{rows}</table:table-rows></table:table></chart:chart></office:chart></office:body>"
            "</office:document-content>").encode()


def odf_object_frame(name: str) -> str:
    return (f'<draw:frame draw:name="{name}"><draw:object xlink:href="./{name}" xlink:type="simple"/>'
            f'<draw:image xlink:href="./ObjectReplacements/{name}"/></draw:frame>')


def odf_package(mimetype: str, body: str, kind: str, parts: dict[str, bytes]) -> bytes:
    """An ODF zip: ``body`` inside office:``kind``, plus sub-document parts."""
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODF_NS}><office:body>'
               f"<office:{kind}>{body}</office:{kind}></office:body></office:document-content>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content)
        for name, data in parts.items():
            zf.writestr(name, data)
    return buf.getvalue()
