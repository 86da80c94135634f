#!/usr/bin/env bash
# Makes the workbook fixtures in this folder (README.md here lists them). Needs, on Debian:
#   apt-get install libreoffice-calc-nogui zip
#   python3 -m venv /work/venv-wb && /work/venv-wb/bin/pip install openpyxl msoffcrypto-tool
# and PYTHON=/work/venv-wb/bin/python3 (default: python3), MSOFFCRYPTO=/work/venv-wb/bin/msoffcrypto-tool.
set -euo pipefail
cd "$(dirname "$0")"
python=${PYTHON:-python3}
msoffcrypto=${MSOFFCRYPTO:-msoffcrypto-tool}

# openpyxl.xlsx, payments.fods and the hostile packages.
"$python" make_workbooks.py

# LibreOffice's own files from its flat XML document, in a private profile so that a desktop session is left
# alone. Converting to .xlsx and .ods computes the formula and stores its value.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
for target in xlsx ods xls; do
  soffice -env:UserInstallation="file://$profile" --headless --convert-to "$target" --outdir . payments.fods >/dev/null
done
mv payments.xlsx libreoffice.xlsx
mv payments.ods libreoffice.ods
# A real Excel 97-2003 workbook (BIFF8 in a Compound File), as LibreOffice writes it.
mv payments.xls legacy.xls

# The ODS fixtures, from the flat XML documents make_ods_sources.py writes: equivalence.fods saved by LibreOffice
# as .csv, .xlsx and .ods (the same records in the three formats), and features.fods saved as .ods.
"$python" make_ods_sources.py
for target in csv xlsx ods; do
  soffice -env:UserInstallation="file://$profile" --headless --convert-to "$target" --outdir . equivalence.fods >/dev/null
done
soffice -env:UserInstallation="file://$profile" --headless --convert-to ods --outdir . features.fods >/dev/null

# A password-protected workbook as Excel saves it: the package encrypted (ECMA-376 agile encryption) inside a
# Compound File, beside its EncryptionInfo stream. The password is "fxbatch".
"$msoffcrypto" -e -p fxbatch openpyxl.xlsx password-protected.xlsx

# A zip whose sheet entry is encrypted with the traditional PKWARE cipher (password "fxbatch").
workspace=$(mktemp -d)
mkdir -p "$workspace/xl/worksheets"
printf '<worksheet/>' >"$workspace/xl/worksheets/sheet1.xml"
printf '<Types/>' >"$workspace/[Content_Types].xml"
here=$(pwd)
rm -f encrypted-entry.xlsx
(cd "$workspace" && TZ=UTC touch -t 202401010000 '[Content_Types].xml' xl/worksheets/sheet1.xml &&
  zip -q -X "$here/encrypted-entry.xlsx" '[Content_Types].xml' &&
  zip -q -X -P fxbatch "$here/encrypted-entry.xlsx" xl/worksheets/sheet1.xml)
rm -rf "$workspace"

# Samples/expenses.xlsx (and .ods), the sample workbook of README's first command: a travel expense report written as
# LibreOffice's flat XML and saved by LibreOffice as .xlsx (date cells, amounts formatted #,##0.00, a second sheet).
row() { # date amount currency target description
  printf '    <table:table-row><table:table-cell table:style-name="datecell" office:value-type="date" office:date-value="%s"><text:p>%s</text:p></table:table-cell>' "$1" "$1"
  printf '<table:table-cell table:style-name="amountcell" office:value-type="float" office:value="%s"><text:p>%s</text:p></table:table-cell>' "$2" "$2"
  printf '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' "$3" "$4"
  printf '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell></table:table-row>\n' "$5"
}
sample=$(mktemp -d)
{
  sed -n '/^FODS = """/,/<office:body>/p' make_workbooks.py | sed '1s/^FODS = """//'
  printf '  <office:spreadsheet>\n   <table:table table:name="Expenses">\n    <table:table-row>'
  for name in date amount currency target_currency description; do
    printf '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>' "$name"
  done
  printf '</table:table-row>\n'
  row 2025-03-03 1250.00 USD EUR "Flight Berlin - New York"
  row 2025-03-04 389.90 USD EUR "Hotel, 2 nights"
  row 2025-03-06 74.50 GBP EUR "Train London - Cambridge"
  row 2025-03-08 18.20 CHF EUR "Taxi Zurich airport (a Saturday)"
  row 2025-03-10 5600 JPY EUR "Dinner Tokyo"
  row 2025-03-11 420.00 SEK USD "Conference fee"
  printf '   </table:table>\n   <table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string"><text:p>Travel expenses, March 2025</text:p></table:table-cell></table:table-row></table:table>\n'
  printf '  </office:spreadsheet>\n </office:body>\n</office:document>\n'
} >"$sample/expenses.fods"
# The same saved as .ods: Samples/expenses.ods.
for target in xlsx ods; do
  soffice -env:UserInstallation="file://$profile" --headless --convert-to "$target" --outdir ../../../../Samples "$sample/expenses.fods" >/dev/null
done
rm -rf "$sample"

ls -l
