import FXBatchTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 32, item 4: `payments.csv.gz` was read as CSV text ("not UTF-8 … use --encoding windows-1252"). A
/// `.gz`, `.zst`, `.xz` or `.bz2` input, made by the real commands, is recognised by its first bytes, read as a
/// stream, and converted as the plain file is; `X.csv.gz` is written as `X.converted.csv.gz` in the same
/// compression, an `-o` name decides the output's, and the output decompressed is the plain run's byte for byte.
/// Damaged, cut-off and endless (a bomb) data is refused with nothing written.
@Suite("compressed files")
struct CompressedFilesTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A compression and its command: how it compresses a file (keeping it) and decompresses to standard output.
  struct Tool: CustomStringConvertible, Sendable {
    let name: String
    let fileExtension: String
    let compress: [String]
    let decompress: [String]
    var description: String { name }

    var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/\(compress[0])") }
  }

  static let tools = [
    Tool(name: "gzip", fileExtension: "gz", compress: ["gzip", "-k", "-f"], decompress: ["gzip", "-dc"]),
    Tool(name: "zstd", fileExtension: "zst", compress: ["zstd", "-q", "-k", "-f"], decompress: ["zstd", "-dcq"]),
    Tool(name: "xz", fileExtension: "xz", compress: ["xz", "-k", "-f"], decompress: ["xz", "-dc"]),
    Tool(name: "bzip2", fileExtension: "bz2", compress: ["bzip2", "-k", "-f"], decompress: ["bzip2", "-dc"]),
  ]

  static var gzip: Tool { tools[0] }

  /// Runs a command of `/usr/bin` in a directory, standard input from a file (or `/dev/null`) and standard
  /// output into one (or discarded).
  @discardableResult
  static func command(_ arguments: [String], in directory: URL, input: String? = nil, output: String? = nil) throws
    -> Int32
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(arguments[0])")
    process.arguments = Array(arguments.dropFirst())
    process.currentDirectoryURL = directory
    process.standardInput = try input.map { try FileHandle(forReadingFrom: directory.appendingPathComponent($0)) }
    if let output {
      let path = directory.appendingPathComponent(output).path
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    } else {
      process.standardOutput = FileHandle.nullDevice
    }
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Records of every kind: converted, a fallback day, an unknown currency, a quoted field with the delimiter.
  static let payments = """
    id,amount,currency,date,memo\r
    1,100.00,USD,2020-01-02,plain\r
    2,1234.56,GBP,2021-03-06,"a weekend, the Friday's rate"\r
    3,7,XXX,2020-01-02,no rate\r
    4,-49.5,JPY,2024-04-03,refund\r

    """

  /// 100 USD on 2020-01-02 at 1.1193 = 89.34 EUR: the first record's converted amount, whatever the file's
  /// compression.
  static let firstConverted = "89.34"

  func bytes(_ directory: TemporaryDirectory, _ name: String) throws -> Data {
    try Data(contentsOf: directory.url.appendingPathComponent(name))
  }

  @Test("X.csv.EXT is converted to X.converted.csv.EXT, the plain run's bytes in the same compression", arguments: tools)
  func aCompressedFileConvertsAsThePlainFile(tool: Tool) throws {
    guard tool.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(Self.payments, named: "payments.csv")
    let plain = try cli.run(["convert", "--to", "EUR", "-q", "payments.csv"], in: directory.url)
    #expect(plain.status == 1, "\(plain.standardError)")  // the XXX record
    try Self.command(tool.compress + ["payments.csv"], in: directory.url)
    let compressed = "payments.csv.\(tool.fileExtension)"
    let run = try cli.run(["convert", "--to", "EUR", compressed], in: directory.url)
    #expect(run.status == 1, "\(run.standardError)")
    #expect(run.standardError.contains("\(compressed) -> payments.converted.csv.\(tool.fileExtension): 4 records"))
    #expect(run.standardError.contains("[\(tool.name)]"), "\(run.standardError)")
    // Decompressed by the tool itself: the plain run's output byte for byte.
    let written = "payments.converted.csv.\(tool.fileExtension)"
    #expect(try Self.command(tool.decompress + [written], in: directory.url, output: "decompressed.csv") == 0)
    let expected = try bytes(directory, "payments.converted.csv")
    #expect(try bytes(directory, "decompressed.csv") == expected)
    #expect(String(decoding: expected, as: UTF8.self).contains(",\(Self.firstConverted),EUR,"))
    // An -o name decides the output's compression: the plain file written compressed, the compressed one plain.
    #expect(
      try cli.run(
        ["convert", "--to", "EUR", "-q", "payments.csv", "-o", "named.csv.\(tool.fileExtension)"],
        in: directory.url
      ).status == 1)
    #expect(
      try Self.command(tool.decompress + ["named.csv.\(tool.fileExtension)"], in: directory.url, output: "named.csv") == 0)
    #expect(try bytes(directory, "named.csv") == expected)
    let unpacked = try cli.run(["convert", "--to", "EUR", compressed, "-o", "unpacked.csv"], in: directory.url)
    #expect(unpacked.standardError.contains("[\(tool.name), written uncompressed]"), "\(unpacked.standardError)")
    #expect(try bytes(directory, "unpacked.csv") == expected)
  }

  /// Compressed bytes piped to `-`: copied decompressed and read twice, or (with `--format csv` and the decimal
  /// mark given) looked at without being taken (tee(2)) and then copied, as the one-pass reader cannot read them.
  @Test(arguments: [[String](), ["--format", "csv", "--decimal-separator", "."]])
  func compressedStandardInputConverts(options: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(Self.payments, named: "payments.csv")
    let plain = try cli.run(["convert", "--to", "EUR", "-q", "payments.csv", "-o", "-"], in: directory.url)
    for tool in Self.tools where tool.isInstalled {
      try Self.command(tool.compress + ["payments.csv"], in: directory.url)
      let input = try bytes(directory, "payments.csv.\(tool.fileExtension)")
      let run = try cli.run(["convert", "--to", "EUR"] + options + ["-", "-o", "-"], in: directory.url, input: input)
      #expect(run.standardOutput == plain.standardOutput, "\(tool) \(options): \(run.standardError)")
      #expect(run.standardError.contains("[\(tool.name), written uncompressed]"), "\(run.standardError)")
    }
  }

  /// `cat a.gz b.gz` is one gzip file of two members (as `pigz` and log rotation write them): every member is
  /// read, as `gzip -d` reads them.
  // Before: `-o out.csv.lz4` wrote plain CSV into out.csv.lz4 without a word. An output named with a compression
  // or archive fxbatch does not write is refused, the ones it writes named, nothing written.
  @Test(arguments: ["out.csv.lz4", "out.zip", "out.csv.7z", "out.rar", "out.csv.lzma", "out.csv.Z", "out.csv.br"])
  func anOutputInACompressionNotWrittenIsRefused(name: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try "amount,from\n10,USD\n".write(toFile: directory.path + "/payments.csv", atomically: true, encoding: .utf8)
    let result = try cli.run(["convert", "--to", "EUR", "payments.csv", "-o", name], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("a compression or archive fxbatch does not write: \(name)"), "\(result.standardError)")
    #expect(result.standardError.contains("name the output .csv, or add .gz, .zst, .xz or .bz2 to compress it"))
    #expect(try directory.fileNames() == ["payments.csv"])
  }

  @Test func concatenatedGzipMembersAreReadInTurn() throws {
    guard Self.gzip.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.payments.components(separatedBy: "\r\n")
    _ = try directory.write(lines.prefix(3).joined(separator: "\r\n") + "\r\n", named: "first.csv")
    _ = try directory.write(lines.dropFirst(3).joined(separator: "\r\n"), named: "second.csv")
    _ = try directory.write(Self.payments, named: "whole.csv")
    try Self.command(["gzip", "-k", "first.csv"], in: directory.url)
    try Self.command(["gzip", "-k", "second.csv"], in: directory.url)
    let joined = try bytes(directory, "first.csv.gz") + bytes(directory, "second.csv.gz")
    try joined.write(to: directory.url.appendingPathComponent("joined.csv.gz"))
    let plain = try cli.run(["convert", "--to", "EUR", "-q", "whole.csv", "-o", "-"], in: directory.url)
    let run = try cli.run(["convert", "--to", "EUR", "-q", "joined.csv.gz", "-o", "-"], in: directory.url)
    #expect(run.standardOutput == plain.standardOutput, "\(run.standardError)")
    #expect(run.standardOutput.components(separatedBy: "\r\n").count == 6)  // the header, 4 records, ""
  }

  /// Cut off, damaged, or followed by bytes of no member: a file error naming the compression and what is
  /// wrong, and nothing written, for every compression.
  @Test(arguments: tools)
  func damagedDataIsRefusedWithNothingWritten(tool: Tool) throws {
    guard tool.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Long enough that a byte in its middle is compressed data, not a header.
    let text = "amount,currency,date\n" + (0..<2000).map { "\($0).25,USD,2020-01-\(10 + $0 % 20)\n" }.joined()
    _ = try directory.write(text, named: "data.csv")
    try Self.command(tool.compress + ["data.csv"], in: directory.url)
    let whole = [UInt8](try bytes(directory, "data.csv.\(tool.fileExtension)"))
    let cases: [(name: String, bytes: [UInt8], message: String)] = [
      ("cut", Array(whole.prefix(whole.count - 9)), "data ends early"),
      ("damaged", whole.enumerated().map { $0.offset == whole.count / 2 ? ~$0.element : $0.element }, "damaged"),
      ("trailing", whole + Array("garbage after the data\n".utf8), tool.name == "xz" ? "damaged" : "no \(tool.name) data"),
    ]
    for (name, damaged, message) in cases {
      let file = "\(name).csv.\(tool.fileExtension)"
      _ = try directory.write(damaged, named: file)
      let run = try cli.run(["convert", "--to", "EUR", file], in: directory.url)
      #expect(run.status == 2, "\(tool) \(name): \(run.standardError)")
      #expect(run.standardError.contains("\(file):1:1: error: the \(tool.name) data"), "\(run.standardError)")
      #expect(run.standardError.contains(message), "\(tool) \(name): \(run.standardError)")
      #expect(run.standardError.contains("hint: check the file with `\(tool.name) -t FILE`"))
      #expect(
        !FileManager.default.fileExists(
          atPath: directory.url.appendingPathComponent("\(name).converted.csv.\(tool.fileExtension)").path))
    }
  }

  /// A decompression bomb: gzip members of 1 MiB of records, repeated to 4 GiB of text in 10 MB, and members of
  /// zeros to 8 GiB. Each stops at a limit (`--max-input-size`, the record limit) within seconds, in bounded memory
  /// and spool, and leaves nothing behind.
  @Test func aDecompressionBombStopsAtTheLimits() throws {
    guard Self.gzip.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let spool = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
    let record = "100.00,USD,2020-01-02\n"
    _ = try directory.write(String(repeating: record, count: (1 << 20) / record.utf8.count), named: "rows")
    _ = try directory.write([UInt8](repeating: 0, count: 1 << 20), named: "zeros")
    _ = try directory.write("amount,currency,date\n", named: "header")
    for part in ["rows", "zeros", "header"] { try Self.command(["gzip", "-9", part], in: directory.url) }
    let header = try bytes(directory, "header.gz")
    for (name, member, count) in [("records", "rows.gz", 4096), ("zeros", "zeros.gz", 8192)] {
      let one = try bytes(directory, member)
      var bomb = header
      for _ in 0..<count { bomb += one }
      try bomb.write(to: directory.url.appendingPathComponent("\(name).csv.gz"))
    }
    let limits = ["--max-input-size", "8M", "--max-record-size", "1M"]
    for (name, message) in [
      ("records", "the decompressed file is longer than 8 MiB (--max-input-size)"),
      ("zeros", "the record is longer than 1 MiB (--max-record-size)"),
    ] {
      let input = directory.url.appendingPathComponent("\(name).csv.gz").path
      let run = try MeasuredRun.run(
        cli.executable, ["convert", "--to", "EUR"] + limits + [input], in: directory.url,
        environment: cli.environment.merging(["TMPDIR": spool.path]) { $1 }, timeLimit: 60)
      #expect(!run.timedOut, "\(name): stopped after 60 s")
      #expect(run.status == 2, "\(name): \(run.standardError)")
      #expect(run.standardError.contains(message), "\(name): \(run.standardError)")
      #expect(run.peakResidentKiB < 200 << 10, "\(name): peak \(run.peakResidentKiB) KiB")
      #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty, "\(name) left files")
    }
  }

  /// A workbook inside gzip (`expenses.xlsx.gz`) is read as the workbook it holds, and its copy written as
  /// `expenses.converted.xlsx.gz`: decompressed, the plain workbook's copy byte for byte.
  @Test func aGzippedWorkbookIsReadAsTheWorkbook() throws {
    guard Self.gzip.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    try FileManager.default.copyItem(
      at: samples.appendingPathComponent("expenses.xlsx"), to: directory.url.appendingPathComponent("expenses.xlsx"))
    let plain = try cli.run(["convert", "-q", "expenses.xlsx"], in: directory.url)
    #expect(plain.status == 0, "\(plain.standardError)")
    try Self.command(["gzip", "-k", "expenses.xlsx"], in: directory.url)
    let run = try cli.run(["convert", "expenses.xlsx.gz"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("expenses.xlsx.gz -> expenses.converted.xlsx.gz"), "\(run.standardError)")
    #expect(run.standardError.contains("[XLSX, gzip]"), "\(run.standardError)")
    try Self.command(["gzip", "-dc", "expenses.converted.xlsx.gz"], in: directory.url, output: "decompressed.xlsx")
    #expect(try bytes(directory, "decompressed.xlsx") == bytes(directory, "expenses.converted.xlsx"))
  }

  /// A second `convert *.csv.gz` meets the first run's `X.converted.csv.gz`: it is asked, decompressed, whether it
  /// is an fxbatch output, and skipped (it was refused as this run's own output before).
  @Test func aSecondRunSkipsItsCompressedOutput() throws {
    guard Self.gzip.isInstalled else { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(Self.payments, named: "payments.csv")
    try Self.command(["gzip", "payments.csv"], in: directory.url)
    #expect(try cli.run(["convert", "--to", "EUR", "-q", "payments.csv.gz"], in: directory.url).status == 1)
    let again = try cli.run(
      ["convert", "--to", "EUR", "payments.csv.gz", "payments.converted.csv.gz"], in: directory.url)
    #expect(again.status == 1, "\(again.standardError)")
    #expect(
      again.standardError.contains("payments.converted.csv.gz: skipped, it is the output of payments.csv.gz"),
      "\(again.standardError)")
  }
}
