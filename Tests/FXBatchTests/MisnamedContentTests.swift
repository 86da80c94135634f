import FXBatchTestSupport
import Foundation
import Testing

/// Issue 32, item 5: JSON, XML, a PDF or a zip named `.csv`/`.txt` was read as CSV ("the header has no amount
/// field (\"[\")"), and Excel's first line `sep=;` was taken for the header. Content that is another format's, or
/// nothing fxbatch reads as text, is named for what it is with the option or step that reads it; `sep=X` sets the
/// delimiter and is kept in the copy.
@Suite("misnamed content and Excel's sep= line")
struct MisnamedContentTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let record = #"{"amount": "100", "currency": "USD", "date": "2020-01-02"}"#

  /// What a misnamed file is refused with: its message and hint.
  static let refusals: [(name: String, content: String, message: String, hint: String)] = [
    (
      "export.csv", "[\n  \(record)\n]\n", "this file is JSON (it starts with `[{`), not CSV as its name .csv says",
      "name it .json or pass --format json"
    ),
    (
      "export.txt", "\(record)\n\(record)\n",
      "this file is JSON Lines (it starts with `{\"`), not CSV as its name .txt says",
      "name it .jsonl or pass --format jsonl"
    ),
    (
      "export.csv", "<?xml version=\"1.0\"?>\n<rows><row><amount>1</amount></row></rows>\n",
      "this file is XML (it starts with `<?xml`), not CSV as its name .csv says", "name it .xml or pass --format xml"
    ),
    (
      "export.tsv", "<payments>\n<payment amount=\"1\"/></payments>\n",
      "this file is XML (it starts with `<payments>`), not CSV as its name .tsv says",
      "name it .xml or pass --format xml"
    ),
    (
      "statement.csv", "%PDF-1.7\n%\u{e2}\u{e3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
      "this file is a PDF document (it starts with %PDF-), not CSV text", "fxbatch reads no PDF"
    ),
    (
      "statement.pdf", "%PDF-1.4\n1 0 obj\n", "this file is a PDF document (it starts with %PDF-), not CSV text",
      "fxbatch reads no PDF"
    ),
    (
      "payments.csv.lz4", "\u{04}\"M\u{18}d@\u{27}amount,currency,date\n",
      "this file is LZ4-compressed data (fxbatch decompresses gzip, zstd, xz and bzip2), not CSV text",
      "decompress it (`lz4 -dk FILE`), or recompress it with gzip or zstd"
    ),
    (
      "rates.html", "<!DOCTYPE html>\n<html><body><table></table></body></html>\n",
      "this file is an HTML page (it starts with <!DOCTYPE html> or <html>), not XML text", "fxbatch reads no HTML"
    ),
  ]

  @Test(arguments: refusals.indices)
  func misnamedContentIsNamedForWhatItIs(index: Int) throws {
    let (name, content, message, hint) = Self.refusals[index]
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(content, named: name)
    let run = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    #expect(run.status == 2, "\(name): \(run.standardError)")
    #expect(run.standardError.contains("\(name):1:1: error: \(message)"), "\(run.standardError)")
    #expect(run.standardError.contains("hint: \(hint)"), "\(run.standardError)")
    #expect(try directory.fileNames() == [name])
  }

  /// The hint is right: `--format json` reads the JSON named `.csv`.
  @Test func theFormatTheHintNamesReadsIt() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("[\n  \(Self.record)\n]\n", named: "export.csv")
    let run = try cli.run(["convert", "--to", "EUR", "--format", "json", "export.csv", "-o", "-"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    // 100 USD on 2020-01-02 at 1.1193 = 89.34 EUR.
    #expect(run.standardOutput.contains(#""fx_converted": "89.34""#) || run.standardOutput.contains(#""fx_converted":"89.34""#))
  }

  /// A CSV header whose names are bracketed (`[Amount]`, as SQL Server exports write them, or `<Amount>`) is no
  /// JSON or XML: it is read as CSV, and refused for its names as any such header is.
  @Test(arguments: ["[Amount],[Currency],[Date]", "<Amount>,<Currency>,<Date>"])
  func aBracketedCSVHeaderIsNotTakenForJSONOrXML(header: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("\(header)\n100,USD,2020-01-02\n", named: "export.csv")
    let run = try cli.run(["convert", "--to", "EUR", "export.csv"], in: directory.url)
    #expect(!run.standardError.contains("this file is"), "\(run.standardError)")
    #expect(run.standardError.contains("the header has no amount field"), "\(run.standardError)")
  }

  /// Archives and data compressed twice: named, with the step that makes them readable.
  @Test func archivesAndDoubleCompressionAreNamed() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip"),
      FileManager.default.isExecutableFile(atPath: "/usr/bin/tar")
    else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("amount,currency,date\n100,USD,2020-01-02\n", named: "a.csv")
    try CompressedFilesTests.command(["tar", "cf", "exports.tar", "a.csv"], in: directory.url)
    try CompressedFilesTests.command(["gzip", "-k", "exports.tar"], in: directory.url)
    try CompressedFilesTests.command(["cp", "exports.tar", "exports.csv"], in: directory.url)
    try CompressedFilesTests.command(["gzip", "-k", "a.csv"], in: directory.url)
    try CompressedFilesTests.command(["gzip", "-c", "a.csv.gz"], in: directory.url, output: "twice.csv.gz")
    for (name, message, hint) in [
      ("exports.csv", "this file is a tar archive of files, not CSV text", "extract its files (`tar -xf FILE`)"),
      ("exports.tar.gz", "decompressed, this file is a tar archive of files, not CSV text", "extract its files"),
      ("twice.csv.gz", "decompressed, this file is gzip-compressed data, not CSV text", "it was compressed twice"),
    ] {
      let run = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
      #expect(run.status == 2, "\(name): \(run.standardError)")
      #expect(run.standardError.contains("\(name):1:1: error: \(message)"), "\(run.standardError)")
      #expect(run.standardError.contains("hint: \(hint)"), "\(run.standardError)")
    }
    // Standard input is named so too.
    let piped = try cli.run(
      ["convert", "--to", "EUR", "-"], in: directory.url,
      input: Data("%PDF-1.7\n1 0 obj\n".utf8))
    #expect(piped.standardError.contains("-:1:1: error: standard input is a PDF document"), "\(piped.standardError)")
  }

  /// A CSV zipped for e-mail is a zip archive, no workbook: named so, with the step that reads it.
  @Test func aZipArchiveOfFilesIsNamed() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zip") else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("amount,currency,date\n100,USD,2020-01-02\n", named: "payments.csv")
    try CompressedFilesTests.command(["zip", "-q", "payments.zip", "payments.csv"], in: directory.url)
    let run = try cli.run(["convert", "--to", "EUR", "payments.zip"], in: directory.url)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "payments.zip:1:1: error: this file is a zip archive of files (payments.csv), not an .xlsx or .ods workbook: "
          + "extract its files (`unzip FILE`) and convert them"), "\(run.standardError)")
    #expect(try directory.fileNames() == ["payments.csv", "payments.zip"])
  }

  /// Compressed content named `.csv` is read by its first bytes, and a workbook named `.csv` as the workbook.
  @Test func compressedOrWorkbookContentNamedCSVIsRead() throws {
    guard CompressedFilesTests.gzip.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("amount,currency,date\n100,USD,2020-01-02\n", named: "plain.csv")
    try CompressedFilesTests.command(["gzip", "-c", "plain.csv"], in: directory.url, output: "payments.csv")
    let run = try cli.run(["convert", "--to", "EUR", "payments.csv", "-o", "-"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("100,USD,2020-01-02,0.8934155276,89.34,EUR"), "\(run.standardOutput)")
    #expect(run.standardError.contains("[gzip, written uncompressed]"), "\(run.standardError)")
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    try FileManager.default.copyItem(
      at: samples.appendingPathComponent("expenses.xlsx"), to: directory.url.appendingPathComponent("expenses.csv"))
    let workbook = try cli.run(["convert", "expenses.csv", "-o", "out.xlsx"], in: directory.url)
    #expect(workbook.status == 0, "\(workbook.standardError)")
    #expect(workbook.standardError.contains("[XLSX]"), "\(workbook.standardError)")
  }

  /// Excel's `sep=X` first line: the delimiter it names, the line copied as it was (CRLF too), the header after
  /// it. `;` also says decimal comma, as the delimiter does.
  @Test(arguments: [";", ",", "\t", "|"])
  func excelsSeparatorLineSetsTheDelimiterAndIsKept(delimiter: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let d = delimiter
    let amount = d == ";" ? "100,00" : "100.00"
    let text = "sep=\(d)\r\namount\(d)currency\(d)date\r\n\(amount)\(d)USD\(d)2020-01-02\r\n"
    _ = try directory.write(text, named: "excel.csv")
    let run = try cli.run(["convert", "--to", "EUR", "excel.csv", "-o", "-"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    let lines = run.standardOutput.components(separatedBy: "\r\n")
    #expect(lines.first == "sep=\(d)", "\(run.standardOutput)")
    #expect(lines.dropFirst().first?.hasPrefix("amount\(d)currency\(d)date\(d)fx_rate\(d)") == true)
    // 100 USD on 2020-01-02 at 1.1193 = 89.34 EUR (written with `.`, whatever the input's mark).
    #expect(lines.dropFirst(2).first?.contains("\(d)89.34\(d)EUR\(d)") == true, "\(run.standardOutput)")
    if d == ";" { #expect(run.standardError.contains("decimal comma"), "\(run.standardError)") }
  }

  /// `sep=;` and `--delimiter ,` disagree: refused, not a silent choice.
  @Test func aDelimiterOptionContradictingTheSeparatorLineIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("sep=;\namount;currency;date\n100;USD;2020-01-02\n", named: "excel.csv")
    let run = try cli.run(["convert", "--to", "EUR", "--delimiter", ",", "excel.csv"], in: directory.url)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(
      run.standardError.contains("Excel's first line sep=… names ; as the delimiter, but --delimiter says ,"),
      "\(run.standardError)")
  }

  // Before: "the header has no amount field ("date;amount;currency")", and a file of `sep=;` alone "the file is
  // empty". The `sep=` line that contradicts the header, or is all there is, is named.
  @Test func aSeparatorLineContradictingTheHeaderOrAloneIsNamed() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("sep=,\ndate;amount;currency\n2020-01-02;100;USD\n", named: "wrong.csv")
    _ = try directory.write("sep=;\r\n", named: "alone.csv")
    let wrong = try cli.run(["convert", "--to", "EUR", "wrong.csv"], in: directory.url)
    #expect(wrong.status == 2, "\(wrong.standardError)")
    #expect(
      wrong.standardError.contains(
        "wrong.csv:2:1: error: Excel's first line sep=, names , as the delimiter, but the header looks ;-delimited "
          + "(\"date;amount;currency\")"), "\(wrong.standardError)")
    #expect(wrong.standardError.contains("correct the first line to sep=;, or delete it"), "\(wrong.standardError)")
    let alone = try cli.run(["convert", "--to", "EUR", "alone.csv"], in: directory.url)
    #expect(alone.status == 2, "\(alone.standardError)")
    #expect(
      alone.standardError.contains("no header record: the file holds only Excel's first line sep=;, which names its delimiter"),
      "\(alone.standardError)")
    #expect(try directory.fileNames().sorted() == ["alone.csv", "wrong.csv"])
  }

  /// With `|` as the delimiter, an annotation holding `|` (a rates file's name in `fx_source`) is quoted by the
  /// fast path as by the general writer (its template knew only `,` and `;`).
  @Test func aPipeInAnAnnotationIsQuotedUnderThePipeDelimiter() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("date,base,quote,rate\n2020-01-02,EUR,USD,1.1193\n", named: "my|rates.csv")
    _ = try directory.write("sep=|\namount|currency|date\n100|USD|2020-01-02\n", named: "excel.csv")
    let run = try cli.run(["convert", "--to", "EUR", "--rates", "my|rates.csv", "excel.csv", "-o", "-"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(#"|"file:my|rates.csv EUR/USD=1.1193"|ok|"#), "\(run.standardOutput)")
  }
}
