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

ls -l
