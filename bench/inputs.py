"""Generated inputs for the benchmarks, and the sample report that ships inside the package.

    python bench/inputs.py sample    # rewrites src/boundread/data/sample-report.pdf
"""

from __future__ import annotations

import sys
from pathlib import Path

REGIONS = ("North", "South", "East", "West", "Online")


def make_report_pdf(path: Path, pages: int, *, seed_text: str = "Quarterly report") -> Path:
    """A text PDF of ``pages`` pages; page 2 holds a table, every page a sentinel `PAGE-n`."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_compression(True)
    for n in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, f"{seed_text} - section {n}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        if n == 2:
            pdf.cell(0, 8, "Revenue by region (thousands of euros)", new_x="LMARGIN", new_y="NEXT")
            body = [(region, str(100 + 7 * i), str(120 + 5 * i), str(90 + 11 * i)) for i, region in enumerate(REGIONS)]
            for row in [("Region", "Q1", "Q2", "Q3"), *body]:
                for cell in row:
                    pdf.cell(40, 8, cell, border=1)
                pdf.ln()
        pdf.multi_cell(0, 6, (
            f"PAGE-{n}. This page discusses results, risks and outlook for section {n}. "
            "Operating costs stayed within budget while logistics improved delivery times. "
        ) * 6)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


if __name__ == "__main__":
    if sys.argv[1:] == ["sample"]:
        target = Path(__file__).resolve().parents[1] / "src" / "boundread" / "data" / "sample-report.pdf"
        print(make_report_pdf(target, 12))
