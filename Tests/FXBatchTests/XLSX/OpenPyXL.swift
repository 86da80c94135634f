import Foundation
import Testing

/// openpyxl (PyPI), the Python library most scripts read and write workbooks with, in the test virtual
/// environment `.ci/run` makes: `Tests/.venv` (gitignored; `python3 -m venv Tests/.venv && Tests/.venv/bin/pip
/// install openpyxl==3.1.5`), or the Python named by `FXBATCH_TEST_PYTHON`. Tests that need it are skipped
/// where neither is there.
enum OpenPyXL {
  /// A Python that imports openpyxl, if any.
  static let python: String? = TestTools.python(importing: "openpyxl")

  /// Every cell of every sheet of a workbook as openpyxl reads it (cached values of formulas: `data_only`):
  /// one JSON object a line, `{"sheet", "cell", "value", "type", "format"}`, dates as ISO text.
  static func cells(of workbook: String) throws -> [[String: String]] {
    let python = try #require(Self.python)
    let script = """
      import json, sys, openpyxl
      book = openpyxl.load_workbook(sys.argv[1], data_only=True)
      for sheet in book.worksheets:
          for row in sheet.iter_rows():
              for cell in row:
                  if cell.value is None:
                      continue
                  value = cell.value.isoformat() if hasattr(cell.value, "isoformat") else str(cell.value)
                  print(json.dumps({"sheet": sheet.title, "cell": cell.coordinate, "value": value,
                                    "type": type(cell.value).__name__, "format": cell.number_format}))
      """
    let (status, output) = try TestTools.run(python, ["-c", script, workbook])
    #expect(status == 0, "openpyxl could not read \(workbook)")
    return try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    }
  }
}
