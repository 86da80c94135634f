import FXBatchTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 30: a stream (standard input, a pipe, a FIFO, a device) is copied to `$TMPDIR` to be read twice, and
/// `convert --format json|xml|xlsx|ods /dev/zero` (and every format on `/dev/urandom`) copied it at ~300 MB/s until
/// the disk was full (5–9 GB in 10 s). Every byte is now checked before it is copied (``StreamCheck``): an endless
/// stream that is not its format is refused within its first bytes (its first 16 MiB for JSON Lines and for lines
/// without an end), `--max-input-size` bounds the rest, and nothing is left in `$TMPDIR`. Streams that are their
/// format still convert as the same file does.
@Suite("streams: copied to $TMPDIR within bounds")
struct StreamSpoolTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// What a run with its own `$TMPDIR` did: how it ended, and the most bytes its files there held at once.
  struct SpoolRun {
    let status: Int32
    let timedOut: Bool
    let peakSpoolBytes: Int
    let standardError: String
  }

  /// Runs `fxbatch` with `$TMPDIR` set to `spool`, adding up the sizes of the files there every 2 ms while it
  /// runs; stops it (SIGTERM, which removes its temporary files) after `timeLimit` seconds or once they hold
  /// more than 256 MB (a run that fills the disk fails its test without filling it).
  ///
  /// - Parameter input: the file standard input reads (a pipe this process wrote would raise SIGPIPE here when
  ///   the run refuses its input before reading all of it); `nil`: `/dev/null`.
  func runWatchingSpool(_ arguments: [String], spool: URL, in directory: URL, input: URL? = nil, timeLimit: Double = 60)
    throws -> SpoolRun
  {
    let errorPath = directory.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
    let errors = try FileHandle(forWritingTo: errorPath)
    defer { try? errors.close() }
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = cli.environment.merging(["TMPDIR": spool.path]) { $1 }
    process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    let started = Date()
    try process.run()
    var peak = 0
    var timedOut = false
    while process.isRunning {
      peak = max(peak, Self.bytesHeld(in: spool.path))
      if !timedOut, Date().timeIntervalSince(started) > timeLimit || peak > 256 << 20 {
        process.terminate()
        timedOut = true
      }
      usleep(2_000)
    }
    process.waitUntilExit()
    let text = (try? String(contentsOf: errorPath, encoding: .utf8)) ?? ""
    return SpoolRun(status: process.terminationStatus, timedOut: timedOut, peakSpoolBytes: peak, standardError: text)
  }

  /// The sum of the sizes of the files in a directory (files removed meanwhile count as empty).
  static func bytesHeld(in directory: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.reduce(0) { total, name in
      var info = stat()
      guard stat(directory + "/" + name, &info) == 0 else { return total }
      return total + Int(info.st_size)
    }
  }

  /// The formats a stream can be given as; `nil`: decided from its first bytes.
  static let formats: [String?] = ["json", "jsonl", "xml", "csv", "xlsx", "ods", nil]

  /// Before: `--format json|xml|xlsx|ods` on /dev/zero, and every format on /dev/urandom, filled the disk. Each
  /// ends within seconds (60 s is the bound of a loaded 2-core machine's debug build), refused, having held at
  /// most 64 MB in `$TMPDIR`, and leaves nothing there.
  @Test(arguments: ["/dev/zero", "/dev/urandom"], formats)
  func anEndlessDeviceIsRefusedWithinBounds(device: String, format: String?) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let spool = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
    let arguments = ["convert", "-q", "-o", "out"] + (format.map { ["--format", $0] } ?? []) + [device]
    let run = try runWatchingSpool(arguments, spool: spool, in: directory.url)
    let name = "\(device) \(format ?? "(detected)")"
    #expect(!run.timedOut, "\(name) was stopped: it ran for 60 s or held 256 MB")
    #expect(run.status == 2, "\(name): \(run.standardError)")
    #expect(run.peakSpoolBytes <= 64 << 20, "\(name) held \(run.peakSpoolBytes) bytes in $TMPDIR")
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty, "\(name) left files in $TMPDIR")
    if device == "/dev/zero", format == nil || format == "csv" || format == "jsonl" {
      // Its 16 MiB line was copied before the record limit stopped it: the watch sees the copy.
      #expect(run.peakSpoolBytes > 1 << 20, "\(name): the spool was never seen")
    }
    // What refused it: the bytes (each message names the stream), or a line without an end.
    let expected: [String]
    switch (device, format) {
    case ("/dev/zero", "json"?), ("/dev/zero", "xml"?): expected = ["the byte 0x00 is a control character"]
    case ("/dev/zero", "xlsx"?), ("/dev/zero", "ods"?), ("/dev/urandom", "xlsx"?), ("/dev/urandom", "ods"?):
      expected = ["does not start as a zip package"]
    case ("/dev/zero", _): expected = ["the record is longer than 16 MiB (--max-record-size)"]
    case (_, "jsonl"?): expected = ["of the stream is a JSON object, so it is not JSON Lines"]
    default:
      // Random bytes: the first that the format's text cannot hold, whichever it is.
      expected = ["the stream is refused before more of it is copied", "is not UTF-8: the file is in another encoding"]
    }
    #expect(
      expected.contains { run.standardError.contains("\(device):") && run.standardError.contains($0) },
      "\(name): \(run.standardError)")
  }

  /// `--max-input-size` bounds a stream whose bytes are all its format's; the refusal says so and leaves nothing.
  @Test func aStreamLongerThanTheInputLimitIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let spool = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
    let text = "amount,from,to,date\n" + String(repeating: "100,EUR,USD,2020-01-02\n", count: 100_000)  // 2.3 MB
    let input = URL(fileURLWithPath: try directory.write(text, named: "in.csv"))
    let refused = try runWatchingSpool(
      ["convert", "-q", "-o", "out.csv", "--max-input-size", "2M", "-"], spool: spool, in: directory.url, input: input)
    #expect(refused.status == 2)
    #expect(
      refused.standardError.hasPrefix(
        "-:1:1: error: standard input is longer than 2 MiB (--max-input-size); a stream is copied to a temporary file "
          + "to be read twice, and this one is refused before it fills the disk"), "\(refused.standardError)")
    #expect(refused.standardError.contains("hint: raise the limit with --max-input-size BYTES"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out.csv").path))
    let converted = try runWatchingSpool(
      ["convert", "-q", "-o", "out.csv", "--max-input-size", "3M", "-"], spool: spool, in: directory.url, input: input)
    #expect(converted.status == 0, "\(converted.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
  }

  @Test(arguments: ["12X", "0", "100", "65G", "M"])
  func maxInputSizeMustBeAByteCount(_ text: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(["convert", "-q", "--max-input-size", text, "-"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.contains("--max-input-size \(text): expected a number of bytes"))
  }

  /// Streams of each text format whose characters (2, 3 and 4 bytes of UTF-8, UTF-16 surrogate pairs) straddle
  /// the blocks they are read and checked in convert exactly as the same file does; so does a JSON Lines
  /// stream whose first lines are not records.
  @Test(arguments: ["csv", "json", "jsonl", "xml", "utf-16 csv", "utf-16 xml", "jsonl with bad first lines"])
  func aStreamOfItsFormatConvertsAsTheFileDoes(kind: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let note = "é€😀ü"
    let count = 20_000
    var bytes: [UInt8]
    var format: [String] = []
    switch kind {
    case "csv", "utf-16 csv":
      let text = "amount,from,to,date,note\n" + String(repeating: "100,EUR,USD,2020-01-02,\(note)\n", count: count)
      bytes = kind == "csv" ? Array(text.utf8) : [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
      format = ["--format", "csv"]  // UTF-16 text is sniffed as XML
    case "json":
      let record = #"{"amount":100,"from":"EUR","to":"USD","date":"2020-01-02","note":"\#(note)"}"#
      bytes = Array(("[" + Array(repeating: record, count: count).joined(separator: ",\n") + "]\n").utf8)
    case "jsonl", "jsonl with bad first lines":
      let record = #"{"amount":100,"from":"EUR","to":"USD","date":"2020-01-02","note":"\#(note)"}"#
      let start = kind == "jsonl" ? "" : "not JSON\n[1]\n"
      bytes = Array((start + String(repeating: record + "\n", count: count)).utf8)
      if kind != "jsonl" {
        bytes.insert(0xFF, at: 3)  // not UTF-8: that line's invalid_record, as in a file
        format = ["--format", "jsonl"]  // its first line is no JSON: sniffed as CSV
      }
    default:
      let rows = String(
        repeating: #"<row amount="100" from="EUR" to="USD" date="2020-01-02" note="\#(note)"/>"# + "\n", count: count)
      let text = "<?xml version=\"1.0\" encoding=\"\(kind == "xml" ? "UTF-8" : "UTF-16")\"?>\n<rows>\n\(rows)</rows>\n"
      bytes = kind == "xml" ? Array(text.utf8) : [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
    let fileName =
      "in." + (kind.contains("jsonl") ? "jsonl" : kind.hasSuffix("json") ? "json" : kind.hasSuffix("xml") ? "xml" : "csv")
    let input = URL(fileURLWithPath: try directory.write(bytes, named: fileName))
    let spool = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
    let fromFile = try cli.run(["convert", "-q", "-o", "file-out", fileName] + format, in: directory.url)
    let fromStream = try runWatchingSpool(
      ["convert", "-q", "-o", "stream-out", "-"] + format, spool: spool, in: directory.url, input: input)
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty, "\(kind)")
    #expect(fromStream.status == fromFile.status, "\(kind): \(fromStream.standardError)")
    #expect(fromFile.status == (kind.contains("bad") ? 1 : 0), "\(kind): \(fromFile.standardError)")
    let expected = try Data(contentsOf: directory.url.appendingPathComponent("file-out"))
    #expect(try Data(contentsOf: directory.url.appendingPathComponent("stream-out")) == expected, "\(kind)")
  }
}
