"""Writes the LibreOffice flat XML sources that make-workbooks.sh converts to .ods, .xlsx and .csv:
equivalence.fods (one table of records for the CSV = XLSX = ODS test) and features.fods (the ODS reader's cases).
Their styles and namespaces are make_workbooks.py's FODS header."""

import re

source = open("make_workbooks.py").read()
header = re.search(r'FODS = """(.*?<office:body>)', source, re.S).group(1)


def cell(kind, value, style=None, extra=""):
    styled = f' table:style-name="{style}"' if style else ""
    if kind == "date":
        return f'<table:table-cell{styled} office:value-type="date" office:date-value="{value}"{extra}><text:p>{value}</text:p></table:table-cell>'
    if kind == "float":
        return f'<table:table-cell{styled} office:value-type="float" office:value="{value}"{extra}><text:p>{value}</text:p></table:table-cell>'
    if kind == "empty":
        return "<table:table-cell/>"
    return f'<table:table-cell office:value-type="string"{extra}><text:p>{value}</text:p></table:table-cell>'


def document(tables):
    body = "\n  <office:spreadsheet>\n"
    for name, rows in tables:
        body += f'   <table:table table:name="{name}">\n    ' + "\n    ".join(rows) + "\n   </table:table>\n"
    return header + body + "  </office:spreadsheet>\n </office:body>\n</office:document>\n"


# amount kind, amount, currency, target, date kind, date, description
records = [
    ("float", "1250.00", "USD", "EUR", "date", "2025-03-03", "flight"),
    ("float", "389.90", "USD", "EUR", "date", "2025-03-04", "hotel"),
    ("float", "74.50", "GBP", "EUR", "date", "2025-03-06", "train"),
    ("float", "18.20", "CHF", "EUR", "date", "2025-03-08", "taxi on a Saturday"),
    ("float", "5600", "JPY", "EUR", "date", "2025-03-10", "dinner"),
    ("float", "420.00", "SEK", "USD", "date", "2025-03-11", "cross rate"),
    ("float", "-35.15", "EUR", "GBP", "date", "2025-03-12", "refund"),
    ("float", "12345678.91", "NOK", "EUR", "date", "2025-03-13", "large"),
    ("float", "0.01", "EUR", "JPY", "date", "2025-03-14", "rounds to no minor units"),
    ("float", "1000", "USD", "ISK", "date", "2025-03-14", "no minor units"),
    ("float", "100", "XYZ", "EUR", "date", "2025-03-14", "unknown currency"),
    ("empty", "", "USD", "EUR", "date", "2025-03-14", "no amount"),
    ("string", "n/a", "USD", "EUR", "date", "2025-03-14", "text amount"),
    ("float", "77.7", "USD", "EUR", "string", "2025-03-05", "date typed as text"),
    ("float", "10", "USD", "EUR", "empty", "", "no date"),
]
rows = ["<table:table-row>" + "".join(cell("string", n) for n in ["amount", "currency", "target_currency", "date", "description"]) + "</table:table-row>"]
for kind, amount, source_currency, target, date_kind, date, note in records:
    rows.append(
        "<table:table-row>" + cell(kind, amount, "amountcell") + cell("string", source_currency) + cell("string", target)
        + cell(date_kind, date, "datecell") + cell("string", note) + "</table:table-row>"
    )
open("equivalence.fods", "w").write(document([("Records", rows)]))


def record(amount_cell, currency, date, note_cell):
    return "<table:table-row>" + amount_cell + cell("string", currency) + cell("string", "EUR") + cell("date", date, "datecell") + note_cell + "</table:table-row>"


features = [
    "<table:table-row><table:table-cell/></table:table-row>",
    "<table:table-header-rows><table:table-row>" + "".join(cell("string", n) for n in ["amount", "currency", "to", "date", "note", "extra"]) + "</table:table-row></table:table-header-rows>",
    record(cell("float", "10", "amountcell"), "USD", "2024-01-15", cell("string", "repeated")).replace("<table:table-row>", '<table:table-row table:number-rows-repeated="3">'),
    record('<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0"><text:p>0</text:p></table:table-cell>', "USD", "2024-01-15", cell("string", "division by zero")),
    record('<table:table-cell table:formula="of:=NA()" office:value-type="float" office:value="0"><text:p>0</text:p></table:table-cell>', "USD", "2024-01-15", cell("string", "not available")),
    record(
        '<table:table-cell office:value-type="currency" office:currency="GBP" office:value="99.99"><text:p>99.99</text:p></table:table-cell>', "GBP", "2024-02-29",
        '<table:table-cell office:value-type="string" table:number-columns-spanned="2"><text:p>merged  over   two<text:tab/>cells</text:p><text:p>second line</text:p></table:table-cell><table:covered-table-cell/>',
    ),
    record('<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>', "USD", "2024-01-15", cell("string", "a boolean")),
    "<table:table-row-group>" + record(
        cell("float", "1000", "amountcell"), "JPY", "2024-03-01",
        '<table:table-cell office:value-type="string"><office:annotation><text:p>a comment</text:p></office:annotation><text:p>grouped</text:p></table:table-cell>',
    ) + "</table:table-row-group>",
]
open("features.fods", "w").write(document([("Ledger", features), ("Second", ["<table:table-row>" + cell("string", "untouched") + "</table:table-row>"])]))
