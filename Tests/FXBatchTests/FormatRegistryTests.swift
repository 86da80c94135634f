import Testing

@testable import FXBatch

/// The registry is the one list of formats: names, extensions and sniffing come from it.
@Suite("Format registry")
struct FormatRegistryTests {
  @Test func namesAndExtensionsAreUnique() {
    let names = FormatRegistry.formats.map { $0.format.rawValue }
    #expect(Set(names).count == names.count)
    let extensions = FormatRegistry.formats.flatMap { $0.fileExtensions }
    #expect(Set(extensions).count == extensions.count)
    #expect(FormatRegistry.names == ["csv", "json", "jsonl", "ods", "xlsx", "xml"])
  }

  @Test func everyFormatIsFoundByItsNameAndItsExtensions() {
    for format in FormatRegistry.formats {
      #expect(RecordFormat.named(format.format.rawValue) == format.format)
      #expect(FormatRegistry.type(of: format.format).format == format.format)
      for fileExtension in format.fileExtensions {
        #expect(RecordFormat.byExtension(of: "dir.d/file." + fileExtension.uppercased()) == format.format)
      }
    }
    #expect(RecordFormat.named("xls") == nil)
    #expect(RecordFormat.byExtension(of: "file.xls") == nil)
  }

  @Test func helpTextsComeFromTheRegistry() {
    #expect(FormatRegistry.displayNames == "CSV, JSON, JSON Lines, ODS, XLSX or XML")
    #expect(FormatRegistry.extensionsHelp == ".csv .tsv .txt, .json, .jsonl .ndjson, .ods, .xlsx, .xml")
  }

  @Test(arguments: [
    ("csv", nil, nil, [String]()), ("csv", ";", nil, ["delimiter ;"]), ("csv", "\t", nil, ["delimiter tab"]),
    ("jsonl", nil, nil, ["JSON Lines"]), ("json", nil, "data.items", ["JSON, records at data.items"]),
    ("xml", nil, nil, ["XML"]), ("xlsx", nil, nil, ["XLSX"]), ("ods", nil, nil, ["ODS"]), ("unknown", nil, nil, []),
  ])
  func summaryDetails(format: String, delimiter: String?, recordsPath: String?, expected: [String]) {
    var file = RunReport.File(input: "in")
    file.format = format
    file.delimiter = delimiter
    file.recordsPath = recordsPath
    #expect(FormatRegistry.summaryDetails(of: file) == expected)
  }
}
