#!/usr/bin/env python3
"""The ODS benchmark's helpers (Benchmarks/ods.sh): make the spreadsheet, check fxbatch's converted spreadsheet.

  generate CSV ODS                  the payments CSV (scale_generate.py's `id,date,amount,from,to`) as a
                                    one-table .ods in the markup LibreOffice Calc writes when it saves one: a
                                    row style on each row, `id` and `amount` float cells and `date` a date cell
                                    (`office:value`/`office:date-value` with LibreOffice's `calcext:value-type`),
                                    the currencies string cells, each cell with its `text:p`; the root declaring
                                    LibreOffice's namespaces. `mimetype` stored first, the rest deflated at zlib
                                    level 6 (LibreOffice's). Standard library only.
  compare ODS CSV                   fxbatch's converted spreadsheet against its converted CSV of the same
                                    records: every fx_* value of every row, as text (numbers and the date from
                                    their `office:value`/`office:date-value`, the rest from their paragraphs),
                                    read from content.xml with zipfile and regular expressions. Prints the number
                                    of rows that differ (0 when they all agree), the first few differences to
                                    standard error.
"""

import csv
import html
import re
import sys
import zipfile

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_NAMESPACES = {
    "office": _OFFICE,
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "number": "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "calcext": "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0",
    "loext": "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0",
    "of": "urn:oasis:names:tc:opendocument:xmlns:of:1.2",
    "xlink": "http://www.w3.org/1999/xlink",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
}
_ROOT_ATTRIBUTES = " ".join(f'xmlns:{prefix}="{name}"' for prefix, name in _NAMESPACES.items())
_MEDIA_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
    f'<manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="{_MEDIA_TYPE}"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    f'<office:document-styles {_ROOT_ATTRIBUTES} office:version="1.3"><office:styles>'
    '<style:style style:name="Default" style:family="table-cell"/></office:styles></office:document-styles>'
)


def _string(value):
    return (
        f'<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>{html.escape(value, quote=False)}'
        "</text:p></table:table-cell>"
    )


def generate(csv_path, ods_path):
    with open(csv_path, newline="") as source, zipfile.ZipFile(ods_path, "w") as package:
        package.writestr(zipfile.ZipInfo("mimetype"), _MEDIA_TYPE, compress_type=zipfile.ZIP_STORED)
        info = zipfile.ZipInfo("content.xml")
        info.compress_type = zipfile.ZIP_DEFLATED
        with package.open(info, "w", force_zip64=True) as content:
            content.write(
                (
                    '<?xml version="1.0" encoding="UTF-8"?>\n'
                    f'<office:document-content {_ROOT_ATTRIBUTES} office:version="1.3"><office:scripts/>'
                    '<office:automatic-styles><style:style style:name="co1" style:family="table-column">'
                    '<style:table-column-properties fo:break-before="auto" style:column-width="0.889in"/></style:style>'
                    '<style:style style:name="ro1" style:family="table-row"><style:table-row-properties '
                    'style:row-height="0.178in" fo:break-before="auto" style:use-optimal-row-height="true"/></style:style>'
                    '<number:date-style style:name="N37"><number:year number:style="long"/><number:text>-</number:text>'
                    '<number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/>'
                    '</number:date-style><style:style style:name="ce1" style:family="table-cell" '
                    'style:parent-style-name="Default" style:data-style-name="N37"/></office:automatic-styles>'
                    '<office:body><office:spreadsheet><table:calculation-settings table:automatic-find-labels="false"/>'
                    '<table:table table:name="Payments" table:style-name="ta1">'
                    '<table:table-column table:style-name="co1" table:number-columns-repeated="5" '
                    'table:default-cell-style-name="Default"/>'
                ).encode()
            )
            records = csv.reader(source)
            header = next(records)
            rows = ['<table:table-row table:style-name="ro1">' + "".join(map(_string, header)) + "</table:table-row>"]
            for number, date, amount, base, quote in records:
                rows.append(
                    '<table:table-row table:style-name="ro1">'
                    f'<table:table-cell office:value-type="float" office:value="{number}" calcext:value-type="float">'
                    f"<text:p>{number}</text:p></table:table-cell>"
                    f'<table:table-cell table:style-name="ce1" office:value-type="date" office:date-value="{date}" '
                    f'calcext:value-type="date"><text:p>{date}</text:p></table:table-cell>'
                    f'<table:table-cell office:value-type="float" office:value="{amount}" calcext:value-type="float">'
                    f"<text:p>{amount}</text:p></table:table-cell>"
                    f"{_string(base)}{_string(quote)}</table:table-row>"
                )
                if len(rows) >= 10000:
                    content.write("".join(rows).encode())
                    rows = []
            content.write("".join(rows).encode())
            content.write(
                b"</table:table><table:named-expressions/></office:spreadsheet></office:body></office:document-content>"
            )
        for name, text in (("styles.xml", _STYLES), ("META-INF/manifest.xml", _MANIFEST)):
            package.writestr(name, text, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)


_ROW = re.compile(rb"<table:table-row[^>]*?(?:/>|>(.*?)</table:table-row>)", re.S)
_CELL = re.compile(rb"<table:table-cell([^>]*?)(?:/>|>(.*?)</table:table-cell>)", re.S)
_ATTRIBUTE = re.compile(rb'([\w:-]+)="([^"]*)"')
_SPACES = re.compile(rb'<text:s(?: text:c="(\d+)")?/>')


def _cell_text(attributes, content):
    found = dict(_ATTRIBUTE.findall(attributes))
    kind = found.get(b"office:value-type")
    if kind in (b"float", b"currency", b"percentage"):
        return found[b"office:value"].decode()
    if kind == b"date":
        return found[b"office:date-value"].decode()
    text = _SPACES.sub(lambda m: b" " * int(m.group(1) or 1), content or b"")
    paragraphs = re.findall(rb"<text:p>(.*?)</text:p>", text, re.S)
    return html.unescape(b"\n".join(re.sub(rb"<[^>]*>", b"", p) for p in paragraphs).decode())


def _table_rows(ods_path):
    """Each row of the first table: its cells' text by column (repeated cells expanded, up to 64 columns)."""
    with zipfile.ZipFile(ods_path) as package, package.open("content.xml") as content:
        pending = b""
        while True:
            chunk = content.read(1 << 22)
            pending += chunk
            end = 0
            for row in _ROW.finditer(pending):
                if row.end() == len(pending) and chunk:
                    break
                end = row.end()
                cells = []
                for cell in _CELL.finditer(row.group(1) or b""):
                    attributes = dict(_ATTRIBUTE.findall(cell.group(1)))
                    repeat = min(int(attributes.get(b"table:number-columns-repeated", b"1")), 64)
                    cells += [_cell_text(cell.group(1), cell.group(2))] * repeat
                yield cells
            pending = pending[end:]
            if not chunk:
                return


def compare(ods_path, csv_path):
    rows = _table_rows(ods_path)
    header = next(rows)
    columns = {name: index for index, name in enumerate(header) if name.startswith("fx_")}
    differing = 0
    shown = 0
    with open(csv_path, newline="") as source:
        records = csv.DictReader(source)
        fields = [name for name in records.fieldnames if name.startswith("fx_")]
        if sorted(fields) != sorted(columns):
            print(f"ods_tools compare: the fx_* columns differ: {sorted(columns)} against {fields}", file=sys.stderr)
            print(1)
            return
        for number, record in enumerate(records, start=2):
            cells = next(rows, None)
            got = {name: (cells[columns[name]] if cells and columns[name] < len(cells) else "") for name in fields}
            expected = {name: record[name] for name in fields}
            if cells is None or got != expected:
                differing += 1
                if shown < 5:
                    shown += 1
                    print(f"  row {number}: {got} against the CSV's {expected}", file=sys.stderr)
        if next(rows, None) is not None:
            differing += 1
            print("  the spreadsheet has more rows than the CSV", file=sys.stderr)
    print(differing)


def main():
    command, *arguments = sys.argv[1:]
    {"generate": generate, "compare": compare}[command](*arguments)


if __name__ == "__main__":
    main()
