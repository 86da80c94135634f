#!/usr/bin/env python3
"""The XLSX benchmark's helpers (Benchmarks/xlsx.sh): make the workbook, run the peer, check fxbatch's workbook.

  generate CSV XLSX                 the payments CSV (scale_generate.py's `id,date,amount,from,to`) as a
                                    one-sheet workbook: id and amount as number cells, date as a serial number
                                    in the 1900 date system with a `yyyy-mm-dd` date style, the currencies as
                                    inline strings, the header as inline strings; every cell with its `r`.
                                    Deflated at zlib level 6 (Python's default, as openpyxl writes). Standard
                                    library only.
  peer XLSX DAY_RATES OUTPUT        the pandas + openpyxl job: pandas.read_excel(engine="openpyxl"), the rate
                                    by date from scale_reference.py's per-calendar-day table (two merges on
                                    (date, currency), float64), `converted` rounded to the target's minor units,
                                    the workbook written with DataFrame.to_excel(engine="openpyxl").
  compare XLSX CSV                  fxbatch's annotated workbook against its annotated CSV of the same records:
                                    every fx_* value of every row, as text (fx_rate_date, a date cell, as
                                    the ISO day of its serial), read from the sheet XML with zipfile and a
                                    regular expression (no dependencies). Prints the number of
                                    rows that differ (0 when they all agree) and the first few differences to
                                    standard error.
"""

import csv
import datetime
import re
import sys
import zipfile

_BASE = datetime.date(1899, 12, 30)  # serial 0 of the 1900 date system, past its 1900-02-29 quirk
_SHEET = "xl/worksheets/sheet1.xml"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_PARTS = {
    "[Content_Types].xml": (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/styles.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        f'<workbook xmlns="{_MAIN}" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="Payments" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
        'Target="styles.xml"/></Relationships>'
    ),
    "xl/styles.xml": (
        f'<styleSheet xmlns="{_MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
        "</styleSheet>"
    ),
}
_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def _column(index):
    """0 → A, 25 → Z, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def generate(csv_path, xlsx_path):
    with zipfile.ZipFile(xlsx_path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as package:
        for name, xml in _PARTS.items():
            package.writestr(name, _DECLARATION + xml)
        with package.open(_SHEET, "w") as sheet, open(csv_path, newline="") as source:
            sheet.write(f'{_DECLARATION}<worksheet xmlns="{_MAIN}"><sheetData>'.encode())
            rows = csv.reader(source)
            header = next(rows)
            cells = "".join(f'<c r="{_column(i)}1" t="inlineStr"><is><t>{name}</t></is></c>' for i, name in enumerate(header))
            sheet.write(f'<row r="1">{cells}</row>'.encode())
            chunk = []
            for number, (record_id, day, amount, source_code, target_code) in enumerate(rows, 2):
                serial = (datetime.date.fromisoformat(day) - _BASE).days
                chunk.append(
                    f'<row r="{number}"><c r="A{number}"><v>{record_id}</v></c><c r="B{number}" s="1"><v>{serial}</v></c>'
                    f'<c r="C{number}"><v>{amount}</v></c><c r="D{number}" t="inlineStr"><is><t>{source_code}</t></is></c>'
                    f'<c r="E{number}" t="inlineStr"><is><t>{target_code}</t></is></c></row>'
                )
                if len(chunk) == 10_000:
                    sheet.write("".join(chunk).encode())
                    chunk = []
            sheet.write(("".join(chunk) + "</sheetData></worksheet>").encode())


def peer(xlsx_path, day_rates_path, output_path):
    import numpy
    import pandas

    from scale_reference import MINOR_UNITS

    payments = pandas.read_excel(xlsx_path, engine="openpyxl", dtype={"from": str, "to": str})
    payments["day"] = pandas.to_datetime(payments["date"]).dt.strftime("%Y-%m-%d")
    rates = pandas.read_csv(day_rates_path, dtype={"date": str, "currency": str, "rate": "float64"})
    rates = rates.rename(columns={"date": "day"})
    payments = payments.merge(
        rates.rename(columns={"currency": "from", "rate": "from_rate"}), on=["day", "from"], how="left"
    ).merge(rates.rename(columns={"currency": "to", "rate": "to_rate"}), on=["day", "to"], how="left")
    payments["fx_rate"] = payments["to_rate"] / payments["from_rate"]
    converted = (payments["amount"].astype("float64") * payments["fx_rate"]).to_numpy()
    digits = payments["to"].map(MINOR_UNITS).to_numpy()
    rounded = numpy.empty(len(payments))
    for count in numpy.unique(digits):
        chosen = digits == count
        rounded[chosen] = numpy.round(converted[chosen], int(count))
    payments["fx_converted"] = rounded
    payments = payments.drop(columns=["day", "from_rate", "to_rate"])
    payments.to_excel(output_path, engine="openpyxl", index=False, sheet_name="Payments")


_ROW = re.compile(rb'<row r="(\d+)"[^>]*>(.*?)</row>', re.S)
_CELL = re.compile(rb'<c r="([A-Z]+)\d+"[^>]*>(?:<v>([^<]*)</v>|<is><t[^>]*>([^<]*)</t></is>)</c>')


def _text(raw):
    text = raw.decode()
    for escape, character in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&")):
        text = text.replace(escape, character)
    return text.replace("_x005F_", "_")


def _sheet_rows(xlsx_path):
    """Yields (row number, {column letters: text}) for every row of the first sheet."""
    with zipfile.ZipFile(xlsx_path) as package, package.open(_SHEET) as sheet:
        pending = b""
        while True:
            chunk = sheet.read(1 << 22)
            pending += chunk
            end = pending.rfind(b"</row>") + len(b"</row>") if chunk else len(pending)
            for row in _ROW.finditer(pending, 0, end):
                cells = {}
                for cell in _CELL.finditer(row.group(2)):
                    value = cell.group(2) if cell.group(2) is not None else cell.group(3)
                    cells[cell.group(1).decode()] = _text(value)
                yield int(row.group(1)), cells
            pending = pending[end:]
            if not chunk:
                return


def compare(xlsx_path, csv_path):
    rows = _sheet_rows(xlsx_path)
    _, header_cells = next(rows)
    columns = {name: letters for letters, name in header_cells.items() if name.startswith("fx_")}
    differing = 0
    shown = 0
    with open(csv_path, newline="") as source:
        records = csv.DictReader(source)
        fields = [name for name in records.fieldnames if name.startswith("fx_")]
        if sorted(fields) != sorted(columns):
            print(f"xlsx_tools compare: the fx_* columns differ: {sorted(columns)} against {fields}", file=sys.stderr)
            print(1)
            return
        for record in records:
            number, cells = next(rows, (None, {}))
            got = {name: cells.get(columns[name], "") for name in fields}
            if got.get("fx_rate_date", "").isdigit():  # a date cell: its serial in the 1900 system
                got["fx_rate_date"] = (_BASE + datetime.timedelta(days=int(got["fx_rate_date"]))).isoformat()
            expected = {name: record[name] for name in fields}
            if number is None or got != expected:
                differing += 1
                if shown < 5:
                    shown += 1
                    print(f"  row {number}: {got} against the CSV's {expected}", file=sys.stderr)
        if next(rows, None) is not None:
            differing += 1
            print("  the workbook has more rows than the CSV", file=sys.stderr)
    print(differing)


def main():
    command, *arguments = sys.argv[1:]
    {"generate": generate, "peer": peer, "compare": compare}[command](*arguments)


if __name__ == "__main__":
    main()
