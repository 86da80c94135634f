import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// CSV exports not in UTF-8, run through the built `fxbatch`: a Windows-1252 Excel export (`--encoding`), UTF-16
/// with a byte order mark (no option), and the errors of a file that is not what it is read as.
///
/// The export is a German bank statement as Excel writes it on Windows: `;` delimited, decimal comma, day-first
/// dates, `Währung` / `Betrag` / `Datum` headers, umlauts, `€` as the currency, typographic quotes and an en dash.
/// Values by hand from the embedded ECB history:
///  1: 1.234,56 EUR→USD on 2024-03-15 (EUR/USD 1.0892): 1234.56 × 1.0892 = 1344.682752 → 1344.68
///  2: 2.500,00 CHF→USD on 2023-12-20 (EUR/CHF 0.946, EUR/USD 1.0944): 2500 × 1.0944 / 0.946 = 2892.1775… → 2892.18
///  3: 8.750,00 DKK→USD on 2024-01-31 (EUR/DKK 7.455, EUR/USD 1.0837): 8750 × 1.0837 / 7.455 = 1271.9483… → 1271.95
///  4: -45,90 € EUR→USD on 2024-02-05 (EUR/USD 1.0746): -45.90 × 1.0746 = -49.32414 → -49.32
@Suite("fxbatch end to end: CSV encodings")
struct EndToEndCSVEncodingTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let header = "Empfänger;Verwendungszweck;Währung;Betrag;Datum"
  static let records = [
    "Müller & Söhne KG;Büromöbel „Ergonomie“ – Rechnung 4711;€;1.234,56;15.03.2024",
    "Café Zürich AG;Catering Weihnachtsfeier;CHF;2.500,00;20.12.2023",
    "Björn Østergård;Beratung (Honorar 12 Std.);DKK;8.750,00;31.01.2024",
    "Señora Peña S.L.;Übersetzung ¾ Seite;EUR;-45,90 €;05.02.2024",
  ]
  static let export = ([header] + records).joined(separator: "\r\n") + "\r\n"
  static let options = ["--to", "USD", "--amount-field", "Betrag", "--from-field", "Währung"]
  static let annotations = [
    ";1.0892;1344.68;USD;2024-03-15;ecb-embedded EUR/USD=1.0892;ok;",
    ";1.156871036;2892.18;USD;2023-12-20;ecb-embedded EUR/CHF=0.946 EUR/USD=1.0944;ok;",
    ";0.1453655265;1271.95;USD;2024-01-31;ecb-embedded EUR/DKK=7.455 EUR/USD=1.0837;ok;",
    ";1.0746;-49.32;USD;2024-02-05;ecb-embedded EUR/USD=1.0746;ok;",
  ]

  /// Text in Windows-1252, by Foundation's table (independent of the iconv fxbatch uses).
  static func windows1252(_ text: String) throws -> [UInt8] {
    [UInt8](try #require(text.data(using: .windowsCP1252)))
  }

  static func bytes(_ name: String, in directory: TemporaryDirectory) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.url.appendingPathComponent(name)))
  }

  /// A runner whose temporary files go to `tmp` in the directory, to check that none is left behind.
  func runner(in directory: TemporaryDirectory) throws -> CLIRunner {
    let temporary = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    var runner = cli
    runner.environment["TMPDIR"] = temporary.path
    return runner
  }

  static func temporaryFiles(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("tmp").path)
  }

  @Test func windows1252ExportConvertsInItsEncoding() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Self.windows1252(Self.export)
    // By hand: "Währung" is 57 E4 68 72 75 6E 67; € is 0x80, „ 0x84, “ 0x93, – 0x96, ü 0xFC.
    #expect(input.count == Self.export.unicodeScalars.count, "one byte per character")
    #expect(input[27..<34] == [0x57, 0xE4, 0x68, 0x72, 0x75, 0x6E, 0x67])
    try directory.write(input, named: "konto.csv")
    let runner = try runner(in: directory)
    let result = try runner.run(
      ["convert", "--encoding", "windows-1252", "--report", "report.json"] + Self.options + ["konto.csv"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try Self.bytes("konto.csv", in: directory) == input, "the input is untouched")
    let output = try Self.bytes("konto.converted.csv", in: directory)
    let expectedHeader =
      try Self.windows1252(Self.header)
      + Array(";fx_rate;fx_converted;fx_currency;fx_rate_date;fx_source;fx_status;fx_error\r\n".utf8)
    #expect(Array(output.prefix(expectedHeader.count)) == expectedHeader, "the header in Windows-1252")
    var expected = expectedHeader
    for (record, annotation) in zip(Self.records, Self.annotations) {
      expected += try Self.windows1252(record) + Array(annotation.utf8) + [0x0D, 0x0A]
    }
    #expect(output == expected, "every record's bytes, then the annotation, in Windows-1252")
    // The first record by hand: "Müller" (4D FC 6C 6C 65 72) … "„Ergonomie“ – " (84 … 93 20 96 20) … "€;" (80 3B).
    let first = Array(output[expectedHeader.count...].prefix(while: { $0 != 0x0D }))
    #expect(first.prefix(6) == [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])
    #expect(first.contains(0x84) && first.contains(0x93) && first.contains(0x96))
    let euro = try #require(first.firstIndex(of: 0x80))
    #expect(first[euro...].starts(with: [0x80, 0x3B] + Array("1.234,56;15.03.2024;1.0892;1344.68".utf8)))
    #expect(result.standardError.contains("konto.csv -> konto.converted.csv: 4 records: 4 ok, 0 fallback, 0 error"))
    #expect(result.standardError.contains("[delimiter ;, encoding windows-1252, decimal comma"))
    let report = try JSONDecoder().decode(RunReport.self, from: Data(try Self.bytes("report.json", in: directory)))
    #expect(report.files.first?.encoding == "windows-1252")
    #expect(try Self.temporaryFiles(in: directory).isEmpty, "the UTF-8 copies are removed")

    // The same export in UTF-8 gives the same output in UTF-8: reading through the copy changes nothing.
    try directory.write(Self.export, named: "utf8.csv")
    let utf8 = try cli.run(["convert"] + Self.options + ["utf8.csv"], in: directory.url)
    #expect(utf8.status == 0, "\(utf8.standardError)")
    let utf8Output = try Self.bytes("utf8.converted.csv", in: directory)
    #expect(String(bytes: output, encoding: .windowsCP1252).map { Array($0.utf8) } == utf8Output)
  }

  // Standard input in Windows-1252, annotated copy to a file: the same bytes as from a file.
  @Test func windows1252StandardInput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let runner = try runner(in: directory)
    let result = try runner.run(
      ["convert", "--encoding", "windows-1252", "-o", "out.csv"] + Self.options + ["-"], in: directory.url,
      input: Data(try Self.windows1252(Self.export)))
    #expect(result.status == 0, "\(result.standardError)")
    let output = try Self.bytes("out.csv", in: directory)
    let last = String(bytes: output, encoding: .windowsCP1252)?.split(separator: "\r\n").last.map(String.init)
    #expect(last == Self.records[3] + Self.annotations[3])
    #expect(try Self.temporaryFiles(in: directory).isEmpty, "the spooled input and its UTF-8 copy are removed")
  }

  // UTF-16LE with a byte order mark (Excel's "Unicode Text" is UTF-16LE): no --encoding needed; the output is
  // UTF-16LE with the mark.
  @Test func utf16LittleEndianWithByteOrderMarkNeedsNoOption() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = [UInt8](try #require(("\u{FEFF}" + Self.export).data(using: .utf16LittleEndian)))
    #expect(input.prefix(4) == [0xFF, 0xFE, 0x45, 0x00])
    try directory.write(input, named: "konto.csv")
    let runner = try runner(in: directory)
    let result = try runner.run(
      ["convert", "--report", "report.json"] + Self.options + ["konto.csv"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try Self.bytes("konto.csv", in: directory) == input, "the input is untouched")
    let output = try Self.bytes("konto.converted.csv", in: directory)
    var expected =
      "\u{FEFF}" + Self.header + ";fx_rate;fx_converted;fx_currency;fx_rate_date;fx_source;fx_status;fx_error\r\n"
    for (record, annotation) in zip(Self.records, Self.annotations) { expected += record + annotation + "\r\n" }
    #expect(output == [UInt8](try #require(expected.data(using: .utf16LittleEndian))))
    let report = try JSONDecoder().decode(RunReport.self, from: Data(try Self.bytes("report.json", in: directory)))
    #expect(report.files.first?.encoding == "utf-16le")
    #expect(try Self.temporaryFiles(in: directory).isEmpty)
  }

  // The Windows-1252 export read as UTF-8: "Empfänger" has 0xE4 as its 5th byte. Nothing is written.
  @Test func notUTF8WithoutEncodingIsAFileErrorAtItsByte() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(try Self.windows1252(Self.export), named: "konto.csv")
    let result = try cli.run(["convert"] + Self.options + ["konto.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        """
        konto.csv:1:5: error: the byte 0xE4 at line 1, column 5 is not UTF-8: the file is in another encoding; \
        nothing is converted
          hint: a Windows or Excel export is usually Windows-1252: use --encoding windows-1252 (or iso-8859-1, \
        iso-8859-15, utf-16le, utf-16be)
        """), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("konto.converted.csv").path))
  }

  /// A Latin-1 byte deep in a big UTF-8 file (a description, not a field fxbatch reads): the general path, the
  /// fast path, and the fast path in parts (whose first reading of a big file only samples it) all refuse the
  /// file with the same error, and write nothing.
  @Test(arguments: [(false, 1), (true, 1), (true, 3)])
  func notUTF8InARecordIsTheSameErrorOnEveryPath(fastPath: Bool, parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var bytes = Array("date,amount,currency,to,memo\n".utf8)
    for index in 0..<5000 {
      bytes += Array("2024-01-\(10 + index % 10),\(index).50,EUR,USD,Zahlung Nr. \(index) für Büro\n".utf8)
      if index == 4000 { bytes += Array("2024-01-15,1.00,EUR,USD,Gr".utf8) + [0xFC, 0xDF] + Array("e\n".utf8) }
    }
    let input = try directory.write(bytes, named: "in.csv")
    let output = directory.url.appendingPathComponent("out.csv").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.exitStatus == 2)
    // Line 4003 (the header, 4001 records before it); "2024-01-15,1.00,EUR,USD,Gr" is 26 bytes.
    #expect(
      report.files.first?.fileError?.hasPrefix(
        "\(input):4003:27: error: the byte 0xFC at line 4003, column 27 is not UTF-8") == true,
      "\(report.files.first?.fileError ?? "no error")")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  // 0x81 is not a character in Windows-1252: the file is refused at it, nothing is replaced or written.
  @Test func undefinedWindows1252ByteIsAFileError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var input = try Self.windows1252(Self.export)
    let at = try #require(input.firstIndex(of: 0x80))  // the € of record 1 (line 2)
    input[at] = 0x81
    try directory.write(input, named: "konto.csv")
    let runner = try runner(in: directory)
    let result = try runner.run(
      ["convert", "--encoding", "windows-1252"] + Self.options + ["konto.csv"], in: directory.url)
    #expect(result.status == 2)
    // Line 2: "Müller & Söhne KG;Büromöbel „Ergonomie“ – Rechnung 4711;" is 56 characters.
    #expect(
      result.standardError.contains(
        """
        konto.csv:2:57: error: the byte 0x81 at line 2, column 57 is not a character in windows-1252; nothing is \
        converted
          hint: Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined: check which encoding wrote the file
        """), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("konto.converted.csv").path))
    #expect(try Self.temporaryFiles(in: directory).isEmpty)
  }

  @Test func encodingThatContradictsTheByteOrderMarkIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let utf16 = [UInt8](try #require(("\u{FEFF}" + Self.export).data(using: .utf16LittleEndian)))
    try directory.write(utf16, named: "a.csv")
    try directory.write(Self.export, named: "b.csv")
    let result = try cli.run(["convert", "--encoding", "windows-1252"] + Self.options + ["a.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        """
        a.csv:1:1: error: the file starts with a utf-16le byte order mark (FF FE), which contradicts --encoding \
        windows-1252
          hint: leave out --encoding (the byte order mark decides), or use --encoding utf-16le
        """), "\(result.standardError)")
    let noMark = try cli.run(["convert", "--encoding", "utf-16"] + Self.options + ["b.csv"], in: directory.url)
    #expect(noMark.status == 2)
    #expect(
      noMark.standardError.contains(
        "b.csv:1:1: error: --encoding utf-16 needs a byte order mark to tell the byte order, and the file has none"))
    try directory.write(#"[{"amount": "1.50", "from": "EUR", "to": "USD"}]"#, named: "c.json")
    let json = try cli.run(["convert", "--encoding", "windows-1252", "c.json"], in: directory.url)
    #expect(json.status == 2)
    #expect(
      json.standardError.contains("c.json:1:1: error: --encoding windows-1252 is for CSV input, and this file is read as json"),
      "\(json.standardError)")
    let usage = try cli.run(["convert", "--encoding", "latin-2", "b.csv"], in: directory.url)
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("--encoding latin-2: expected utf-8, utf-16, utf-16le"))
  }

  // `convert *.csv` run twice: the Windows-1252 and the UTF-16 outputs of the first run are recognised as
  // fxbatch outputs (their headers read in their encodings) and skipped, not converted again.
  @Test func secondRunSkipsOutputsInTheirEncoding() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(try Self.windows1252(Self.export), named: "konto.csv")
    let utf16 = [UInt8](try #require(("\u{FEFF}" + Self.export).data(using: .utf16LittleEndian)))
    try directory.write(utf16, named: "unicode.csv")
    for (encoding, input) in [(["--encoding", "windows-1252"], "konto"), ([], "unicode")] {
      let arguments = ["convert"] + encoding + Self.options
      let first = try cli.run(arguments + ["\(input).csv"], in: directory.url)
      #expect(first.status == 0, "\(first.standardError)")
      let second = try cli.run(arguments + ["\(input).csv", "\(input).converted.csv"], in: directory.url)
      #expect(second.status == 0, "\(second.standardError)")
      #expect(
        second.standardError.contains("\(input).converted.csv: skipped, it is the output of \(input).csv in this run"),
        "\(second.standardError)")
    }
  }

  // ISO-8859-1 has no "…": the fx_error of a long invalid amount shortens it with "...".
  @Test func annotationCharacterTheEncodingLacksIsWrittenInASCII() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let amount = String(repeating: "9", count: 40) + " Schweizer Franken (ungefähr)"
    let text = "date,amount,currency,to\n2024-01-15,\(amount),CHF,EUR\n"
    let input = [UInt8](try #require(text.data(using: .isoLatin1)))
    try directory.write(input, named: "lang.csv")
    let result = try cli.run(["convert", "--encoding", "iso-8859-1", "lang.csv"], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let output = try Self.bytes("lang.converted.csv", in: directory)
    let line = try #require(String(bytes: output, encoding: .isoLatin1)?.split(separator: "\n").last)
    #expect(line.hasPrefix("2024-01-15,\(amount),CHF,EUR,"))
    // The cell is quoted (it holds quotes), its quotes doubled.
    #expect(line.contains(",\"invalid_amount: "), "\(line)")
    #expect(line.contains("\"\"\(String(amount.prefix(60)))...\"\""), "\(line)")
  }
}
