"""Makes the workbook fixtures of Tests/FXBatchTests/Fixtures/Workbooks/ (run by make-workbooks.sh).

- openpyxl.xlsx: a workbook written by openpyxl (sheet "Payments": a header row date, amount, currency, note; dates
  as date cells, amounts as numbers with the number format #,##0.00, a formula cell with no cached value (openpyxl
  computes nothing), shared strings, a rich-text note; a second sheet "Notes").
  openpyxl 3.1 writes every string as an inline string (t="inlineStr"), the rich-text note as runs.
- payments.fods: the same workbook as LibreOffice's flat XML, which make-workbooks.sh converts with LibreOffice
  itself to libreoffice.xlsx (shared strings, the rich-text note as runs in xl/sharedStrings.xml) and
  libreoffice.ods (and legacy.xls); the formula cell has no cached value in it, so LibreOffice computes one.
- the hostile packages the zip layer must refuse (each described in README.md beside them).
"""

import datetime
import io
import struct
import sys
import zipfile

from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

ROWS = [
    (datetime.date(2024, 1, 15), 1234.56, "USD", "Invoice 17"),
    (datetime.date(2024, 2, 29), 99.5, "GBP", "Leap day"),
    (datetime.date(2024, 3, 1), 1000, "JPY", "Tokyo office"),
]


def openpyxl_workbook(path):
    book = Workbook()
    sheet = book.active
    sheet.title = "Payments"
    sheet.append(["date", "amount", "currency", "note"])
    for row in ROWS:
        sheet.append(list(row))
    # The amount of the last row is a formula: twice the first amount.
    sheet.append([datetime.date(2024, 3, 31), "=B2*2", "EUR", CellRichText(["Formula, ", TextBlock(InlineFont(b=True), "bold")])])
    for number in range(2, 6):
        sheet.cell(row=number, column=1).number_format = "yyyy-mm-dd"
        sheet.cell(row=number, column=2).number_format = "#,##0.00"
    notes = book.create_sheet("Notes")
    notes.append(["Prepared for the fxbatch tests"])
    book.save(path)


FODS = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  <number:date-style style:name="isodate">
   <number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/>
   <number:text>-</number:text><number:day number:style="long"/>
  </number:date-style>
  <number:number-style style:name="amount">
   <number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>
  </number:number-style>
  <style:style style:name="datecell" style:family="table-cell" style:data-style-name="isodate"/>
  <style:style style:name="amountcell" style:family="table-cell" style:data-style-name="amount"/>
  <style:style style:name="bold" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 </office:automatic-styles>
 <office:body>
  <office:spreadsheet>
   <table:table table:name="Payments">
    <table:table-column table:number-columns-repeated="4"/>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>date</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>amount</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>currency</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>note</text:p></table:table-cell>
    </table:table-row>
{rows}
    <table:table-row>
     <table:table-cell table:style-name="datecell" office:value-type="date" office:date-value="2024-03-31"><text:p>2024-03-31</text:p></table:table-cell>
     <table:table-cell table:style-name="amountcell" table:formula="of:=[.B2]*2"/>
     <table:table-cell office:value-type="string"><text:p>EUR</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Formula, <text:span text:style-name="bold">bold</text:span></text:p></table:table-cell>
    </table:table-row>
   </table:table>
   <table:table table:name="Notes">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Prepared for the fxbatch tests</text:p></table:table-cell>
    </table:table-row>
   </table:table>
  </office:spreadsheet>
 </office:body>
</office:document>
"""

FODS_ROW = """    <table:table-row>
     <table:table-cell table:style-name="datecell" office:value-type="date" office:date-value="{date}"><text:p>{date}</text:p></table:table-cell>
     <table:table-cell table:style-name="amountcell" office:value-type="float" office:value="{amount}"><text:p>{amount}</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>{currency}</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>{note}</text:p></table:table-cell>
    </table:table-row>"""


def flat_ods(path):
    rows = "\n".join(
        FODS_ROW.format(date=day.isoformat(), amount=amount, currency=currency, note=note)
        for day, amount, currency, note in ROWS
    )
    with open(path, "w", encoding="utf-8") as file:
        file.write(FODS.replace("{rows}", rows))


CONTENT_TYPES = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="xml" ContentType="application/xml"/></Types>"""

# A fixed time for every entry, so that the files are the same each time the script runs.
ENTRY_TIME = (2024, 1, 1, 0, 0, 0)


def package(path, entries):
    """A zip of (name, bytes) entries, deflated, with fixed times; duplicate names are kept."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, ENTRY_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    with open(path, "wb") as file:
        file.write(buffer.getvalue())
    return bytearray(buffer.getvalue())


def header_offset(data, signature, name_at, name):
    """The offset of the zip header with this signature whose name is at name_at bytes from its start."""
    at = data.index(signature)
    while data[at + name_at : at + name_at + len(name)] != name:
        at = data.index(signature, at + len(signature))
    return at


def patch_entry(data, name, size=None, crc=None):
    """Rewrites an entry's declared size or CRC-32 in its local header and its central directory record."""
    encoded = name.encode()
    # Local file header: signature PK\3\4, CRC at 14, uncompressed size at 22, name at 30.
    # Central directory header: signature PK\1\2, CRC at 16, uncompressed size at 24, name at 46.
    for signature, name_at, crc_at, size_at in [(b"PK\x03\x04", 30, 14, 22), (b"PK\x01\x02", 46, 16, 24)]:
        at = header_offset(data, signature, name_at, encoded)
        if crc is not None:
            struct.pack_into("<I", data, at + crc_at, crc)
        if size is not None:
            struct.pack_into("<I", data, at + size_at, size)
    return data


SHEET = b'<?xml version="1.0" encoding="UTF-8"?>\n<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'


def hostile_packages():
    # 16 MiB of one repeated byte deflates to about 16 KB: a ratio of about 1000.
    bomb = b"<worksheet>" + b" " * (16 << 20) + b"</worksheet>"
    package("zip-bomb.xlsx", [("[Content_Types].xml", CONTENT_TYPES), ("xl/worksheets/sheet1.xml", bomb)])

    # The same bomb, declaring 1000 bytes: only a check while inflating can stop it.
    data = package("lying-bomb.xlsx", [("[Content_Types].xml", CONTENT_TYPES), ("xl/worksheets/sheet1.xml", bomb)])
    with open("lying-bomb.xlsx", "wb") as file:
        file.write(patch_entry(data, "xl/worksheets/sheet1.xml", size=1000))

    # A sheet that declares 20 bytes fewer than it inflates to, and one that declares 20 more.
    entries = [("[Content_Types].xml", CONTENT_TYPES), ("xl/worksheets/sheet1.xml", SHEET)]
    for name, size in [("lying-size-smaller.xlsx", len(SHEET) - 20), ("lying-size-larger.xlsx", len(SHEET) + 20)]:
        data = package(name, entries)
        with open(name, "wb") as file:
            file.write(patch_entry(data, "xl/worksheets/sheet1.xml", size=size))

    # The right size, a wrong checksum.
    data = package("bad-crc.xlsx", entries)
    crc = zipfile.crc32(SHEET) ^ 0x1
    with open("bad-crc.xlsx", "wb") as file:
        file.write(patch_entry(data, "xl/worksheets/sheet1.xml", crc=crc))

    # An Excel binary workbook's shape: xl/workbook.bin instead of xl/workbook.xml.
    package("binary.xlsb", [("[Content_Types].xml", CONTENT_TYPES), ("xl/workbook.bin", bytes([0x83, 0x01, 0x00]))])

    # Document type and entity declarations, in UTF-8 and in UTF-16LE (with its byte order mark).
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE workbook [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n'
        "<workbook>&lol2;</workbook>"
    )
    package("doctype.xlsx", [("[Content_Types].xml", CONTENT_TYPES), ("xl/workbook.xml", laughs.encode())])
    external = '<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE w SYSTEM "file:///etc/passwd">\n<w/>'
    package(
        "doctype-utf16.xlsx",
        [("[Content_Types].xml", CONTENT_TYPES), ("xl/workbook.xml", b"\xff\xfe" + external.encode("utf-16-le"))],
    )

    # Two entries with one name.
    package(
        "duplicate-entry.xlsx",
        [("[Content_Types].xml", CONTENT_TYPES), ("xl/workbook.xml", b"<a/>"), ("xl/workbook.xml", b"<b/>")],
    )

    # An ODF package whose content is encrypted (its manifest says how), as LibreOffice saves with a password.
    manifest = b"""<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="1024">
  <manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k"
   manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc"
   manifest:initialisation-vector="AAAA"/></manifest:encryption-data>
 </manifest:file-entry>
</manifest:manifest>"""
    package(
        "odf-encrypted.ods",
        [
            ("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
            ("META-INF/manifest.xml", manifest),
            ("content.xml", bytes(range(256)) * 4),
        ],
    )


if __name__ == "__main__":
    openpyxl_workbook("openpyxl.xlsx")
    flat_ods("payments.fods")
    hostile_packages()
    sys.exit(0)
