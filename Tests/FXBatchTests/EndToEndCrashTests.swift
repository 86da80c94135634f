import FXBatchTestSupport
import Foundation
import Testing

/// fxbatch issue 13: input that crashed or hung fxbatch (huge years, widely spaced JSON, directories and odd
/// paths, pipes and FIFOs given as paths), and the temporary files a killed run leaves behind.
@Suite("fxbatch end to end: crashes and pipes")
struct EndToEndCrashTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// Records of one format, each `(date, amount, from, to)`; `name` is the file name to write.
  static func file(_ format: String, _ records: [(String, String, String, String)]) -> (name: String, text: String) {
    switch format {
    case "csv":
      return ("in.csv", "date,amount,from,to\n" + records.map { "\($0.0),\($0.1),\($0.2),\($0.3)\n" }.joined())
    case "jsonl":
      return (
        "in.jsonl",
        records.map { "{\"date\":\"\($0.0)\",\"amount\":\($0.1),\"from\":\"\($0.2)\",\"to\":\"\($0.3)\"}\n" }.joined()
      )
    case "json":
      let objects = records.map {
        "  {\"date\": \"\($0.0)\", \"amount\": \($0.1), \"from\": \"\($0.2)\", \"to\": \"\($0.3)\"}"
      }
      return ("in.json", "[\n" + objects.joined(separator: ",\n") + "\n]\n")
    default:
      let elements = records.map {
        "  <order><date>\($0.0)</date><amount>\($0.1)</amount><from>\($0.2)</from><to>\($0.3)</to></order>\n"
      }
      return ("in.xml", "<?xml version=\"1.0\"?>\n<orders>\n" + elements.joined() + "</orders>\n")
    }
  }

  /// How many times `part` occurs in `text`.
  static func count(_ part: String, in text: String) -> Int { text.components(separatedBy: part).count - 1 }

  // A year (or day) too long for an integer trapped while the date was read, in every format and on both the
  // fast and the general path (`--date-format dmy` reads slash dates, another branch of the date reader).
  @Test(arguments: ["csv", "json", "jsonl", "xml"])
  func aYearTooLongForAnIntegerIsAnInvalidDate(format: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let dates = [
      "9999999999999999999-01-01", "01.01.99999999999999999999", "99999999999999999999/01/01",
      "2020-01-99999999999999999999",
      "01/01/184467440737095516160", "9999999999999999999-01-01T10:00:00Z", "2020-01-02",
    ]
    let (name, text) = Self.file(format, dates.map { ($0, "100", "EUR", "USD") })
    try directory.write(name, text)
    for options in [[String](), ["--date-format", "dmy"]] {
      let result = try cli.run(["convert", "-q", "-o", "-", name] + options, in: directory.url)
      #expect(result.status == 1, "\(format) \(options)")
      #expect(Self.count("invalid_date: ", in: result.standardOutput) == 6, "\(format) \(options)")
      #expect(result.standardOutput.contains("9999999999999999999-01-01") && result.standardError.isEmpty)
      // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
      #expect(result.standardOutput.contains("111.93"), "\(format) \(options)")
    }
  }

  // JSON Lines and JSON records spaced more widely than the fast path's 256-byte annotation template trapped;
  // they are converted, annotated with their own spacing.
  @Test(arguments: ["jsonl", "json"])
  func widelySpacedJSONRecordsAreConverted(format: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let gap = String(repeating: " ", count: 30)
    let record = "{\"date\":\"2020-01-02\",\(gap)\"amount\":100,\(gap)\"from\":\"EUR\",\(gap)\"to\":\"USD\"}"
    let text = format == "jsonl" ? "\(record)\n\(record)\n" : "[\(record),\n\(record)]\n"
    try directory.write("in.\(format)", text)
    let result = try cli.run(["convert", "-q", "-o", "-", "in.\(format)"], in: directory.url)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    #expect(
      Self.count(",\(gap)\"fx_converted\":\"111.93\",\(gap)\"fx_currency\":\"USD\"", in: result.standardOutput) == 2)
  }

  // Directories and odd paths as inputs are file errors; as files to write (`-o`, `--report`, `--lock`) they
  // are usage errors, before any work. `convert .`, `--report .`, `--lock .` trapped in Foundation.
  @Test(
    arguments: [
      (["convert", "."], 2, ".:1:1: error: is a directory, not a file"),
      (["convert", "./"], 2, "./:1:1: error: is a directory, not a file"),
      (["convert", ".."], 2, "..:1:1: error: is a directory, not a file"),
      (["convert", "sub/"], 2, "sub/:1:1: error: is a directory, not a file"),
      (["convert", "/"], 2, "/:1:1: error: is a directory, not a file"),
      (["convert", "in.csv", "."], 2, ".:1:1: error: is a directory, not a file"),
      (["convert", ""], 2, ":1:1: error: cannot read the file: No such file or directory"),
      (["convert", "in.csv", "--report", "."], 64, "--report .: names a directory, not a file"),
      (["convert", "in.csv", "--report", "./"], 64, "--report ./: names a directory, not a file"),
      (["convert", "in.csv", "--report", "sub"], 64, "--report sub: is a directory"),
      (["convert", "in.csv", "--report", "missing/r.json"], 64, "--report missing/r.json: no such directory missing"),
      (["convert", "in.csv", "--lock", "."], 64, "--lock .: names a directory, not a file"),
      (["convert", "in.csv", "--lock", "sub/.."], 64, "--lock sub/..: names a directory, not a file"),
      (["convert", "in.csv", "--lock", "missing/"], 64, "--lock missing/: names a directory, not a file"),
      (["convert", "in.csv", "-o", "."], 64, "-o .: names a directory, not a file; use --output-dir ."),
      (["convert", "in.csv", "-o", "sub/"], 64, "-o sub/: names a directory, not a file; use --output-dir sub/"),
      (["convert", "in.csv", "-o", "sub"], 64, "-o sub: is a directory; use --output-dir sub"),
      (["convert", "in.csv", "-o", "/"], 64, "-o /: names a directory, not a file; use --output-dir /"),
      (["convert", "in.csv", "-o", "missing/out.csv"], 64, "-o missing/out.csv: no such directory missing"),
    ] as [([String], Int32, String)])
  func directoriesAndOddPathsAreFileOrUsageErrors(arguments: [String], status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == status)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(!result.standardError.contains("Fatal error") && !result.standardError.contains("Backtrace"))
    if status == 64 { #expect(try directory.fileNames() == ["in.csv", "sub"]) }
  }

  // `/dev/stdin` (a pipe here, as `<(cat f)` is) was read twice: pass 2 found it empty ("0 records", or "the
  // file is empty"). It is read once into a spool, like `-`, and its copy goes to standard output.
  @Test(arguments: ["csv", "json", "jsonl", "xml"])
  func aPipeGivenAsAPathIsReadOnce(format: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (_, text) = Self.file(format, [("2020-01-02", "100", "EUR", "USD"), ("2020-01-02", "200", "EUR", "USD")])
    let result = try cli.run(["convert", "/dev/stdin"], in: directory.url, input: Data(text.utf8))
    #expect(result.status == 0)
    #expect(
      result.standardError.contains("/dev/stdin -> -: 2 records: 2 ok, 0 fallback, 0 error"), "\(result.standardError)")
    // 100 and 200 EUR→USD on 2020-01-02 = × 1.1193 = 111.93 and 223.86
    #expect(result.standardOutput.contains("111.93") && result.standardOutput.contains("223.86"))
    #expect(try directory.fileNames().isEmpty, "nothing written beside the pipe")
    // With -o the copy goes to the file.
    let written = try cli.run(
      ["convert", "-q", "/dev/stdin", "-o", "out.\(format)"], in: directory.url, input: Data(text.utf8))
    #expect(written.status == 0)
    #expect(try directory.read("out.\(format)").contains("223.86"))
  }

  // `/dev/stdin` redirected from a regular file is still standard input: its copy is printed, never written to
  // `/dev/stdin.converted`.
  @Test func aRedirectedFileGivenAsDevStdinIsPrinted() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = ["convert", "-q", "/dev/stdin"]
    process.currentDirectoryURL = directory.url
    process.environment = cli.environment
    process.standardInput = FileHandle(forReadingAtPath: input)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    #expect(String(decoding: printed, as: UTF8.self).contains("2020-01-02,100,EUR,USD,1.1193,111.93,USD,"))
    #expect(!FileManager.default.fileExists(atPath: "/dev/stdin.converted"))
    #expect(try directory.fileNames() == ["in.csv"])
  }

  // A named FIFO hung: pass 2 opened it again and waited for a writer that was gone.
  @Test func aFIFOIsReadOnce() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.url.appendingPathComponent("pipe.jsonl").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let text = "{\"date\":\"2020-01-02\",\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}\n"
    let writer = FIFOWriter(path: fifo, bytes: Data((text + text).utf8))
    writer.start()
    defer { writer.stop() }
    let result = try cli.run(["convert", "-q", "pipe.jsonl", "-o", "out.jsonl"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    #expect(Self.count("\"fx_converted\":\"111.93\"", in: try directory.read("out.jsonl")) == 2)
    writer.stop()
    // Without -o, as for `-`: standard output (nothing can be written beside a FIFO's reader).
    let again = FIFOWriter(path: fifo, bytes: Data(text.utf8))
    again.start()
    defer { again.stop() }
    let printed = try cli.run(["convert", "pipe.jsonl"], in: directory.url)
    #expect(printed.status == 0, "\(printed.standardError)")
    #expect(printed.standardError.contains("pipe.jsonl -> -: 1 record: 1 ok"), "\(printed.standardError)")
    #expect(Self.count("\"fx_converted\":\"111.93\"", in: printed.standardOutput) == 1)
    #expect(try directory.fileNames() == ["out.jsonl", "pipe.jsonl"])
  }

  // Two streams cannot both print their copy to standard output; --output-dir names a file for each.
  @Test func twoStreamsNeedAnOutputDirectory() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.url.appendingPathComponent("pipe.jsonl").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let text = "{\"date\":\"2020-01-02\",\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}\n"
    let csv = "date,amount,from,to\n2020-01-02,200,EUR,USD\n"
    // The FIFO is never opened (its writer stands by, so that a run that opens it fails instead of hanging).
    let unread = FIFOWriter(path: fifo, bytes: Data(text.utf8))
    unread.start()
    let result = try cli.run(["convert", "-q", "-", "pipe.jsonl"], in: directory.url, input: Data(csv.utf8))
    unread.stop()
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "pipe.jsonl:1:1: error: another input of this run already writes its annotated copy to standard output; "
          + "give --output-dir DIR"
      ))
    #expect(result.standardOutput.contains("223.86"))
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("out"), withIntermediateDirectories: false)
    let writer = FIFOWriter(path: fifo, bytes: Data(text.utf8))
    writer.start()
    defer { writer.stop() }
    let both = try cli.run(
      ["convert", "-q", "-", "pipe.jsonl", "--output-dir", "out"], in: directory.url, input: Data(csv.utf8))
    #expect(both.status == 0, "\(both.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("out").path).sorted()
        == [
          "pipe.converted.jsonl", "stdin.converted.csv",
        ])
  }

  // `kill -9` left `.NAME.fxbatch-PID-N.tmp` beside the output and the spool in $TMPDIR. A later run removes
  // those of processes that are gone, where it writes; files of live processes and other files stay.
  @Test func aRunRemovesTheTemporaryFilesOfKilledRuns() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let inputs = directory.url.appendingPathComponent("inputs")
    let outputs = directory.url.appendingPathComponent("outputs")
    let temporary = directory.url.appendingPathComponent("tmp")
    for folder in [inputs, outputs, temporary] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    }
    try "date,amount,from,to\n2020-01-02,100,EUR,USD\n".write(
      to: inputs.appendingPathComponent("in.csv"), atomically: true, encoding: .utf8)
    // A process that has ended: its ID names no process (until reused, which takes a full cycle of IDs).
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let live = getpid()
    let stale = [
      "outputs/.out.csv.fxbatch-\(dead)-1.tmp", "outputs/.other.json.fxbatch-\(dead)-12.tmp",
      "tmp/fxbatch-spool-\(dead)-0",
      "tmp/.fxbatch-spool-\(dead)-1.fxbatch-\(dead)-1.tmp", "tmp/fxbatch-stdin-\(dead).csv",
    ]
    let kept = [
      "outputs/.out.csv.fxbatch-\(live)-1.tmp", "tmp/fxbatch-spool-\(live)-0", "tmp/fxbatch-stdin-\(live).csv",
      "inputs/.in.converted.csv.fxbatch-\(dead)-1.tmp",  // not a directory this run writes to
      "outputs/.out.csv.fxbatch-\(dead)-1.tmp.keep", "outputs/out.csv.fxbatch-\(dead)-1.tmp",
      "outputs/.fxbatch-\(dead)-1.tmp",
      "outputs/.out.csv.fxbatch-\(dead).tmp", "outputs/.out.csv.fxbatch-x\(dead)-1.tmp", "tmp/fxbatch-spool-\(dead)",
      "tmp/fxbatch-spool-\(dead)-0-1", "tmp/fxbatch-stdin-\(dead).json", "tmp/notes.txt",
      "outputs/.out.csv.fxbatch-1-1.tmp",
    ]
    for name in stale + kept {
      try "x".write(to: directory.url.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }
    // A link with a stale name is not a file of fxbatch's: it stays, and so does its target.
    try FileManager.default.createSymbolicLink(
      atPath: outputs.appendingPathComponent(".link.csv.fxbatch-\(dead)-1.tmp").path,
      withDestinationPath: inputs.appendingPathComponent("in.csv").path)
    var runner = cli
    runner.environment["TMPDIR"] = temporary.path
    let result = try runner.run(["convert", "-q", "inputs/in.csv", "-o", "outputs/out.csv"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    for name in stale {
      #expect(
        !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(name).path), "\(name) removed")
    }
    for name in kept {
      #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(name).path), "\(name) kept")
    }
    #expect(
      try FileManager.default.destinationOfSymbolicLink(
        atPath: outputs.appendingPathComponent(".link.csv.fxbatch-\(dead)-1.tmp").path) != "")
    #expect(try String(contentsOf: outputs.appendingPathComponent("out.csv"), encoding: .utf8).contains("111.93"))
  }
}

/// Writes bytes into a FIFO from a thread, as a producer process would: it waits for a reader to open the FIFO,
/// writes, and closes it. Afterwards, until ``stop()``, it gives end of file to any reader that opens the FIFO
/// again (a writer that opens and closes at once), so that a run that wrongly reads the FIFO twice finds it
/// empty and fails its test instead of waiting forever. It never blocks: ``stop()`` ends it at any stage.
private final class FIFOWriter: @unchecked Sendable {
  // @unchecked: `stopped` is accessed only through `lock`; `path` and `bytes` are constants.
  private let path: String
  private let bytes: Data
  private let lock = NSLock()
  private var stopped = false
  private let finished = DispatchSemaphore(value: 0)

  init(path: String, bytes: Data) {
    self.path = path
    self.bytes = bytes
  }

  func start() {
    Thread { [self] in
      defer { finished.signal() }
      // A non-blocking open for writing succeeds only while a reader has the FIFO open (else ENXIO).
      var descriptor: Int32 = -1
      while descriptor < 0 {
        guard !isStopped else { return }
        descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 { Thread.sleep(forTimeInterval: 0.01) }
      }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count, let base = raw.baseAddress {
          let written = write(descriptor, base + offset, raw.count - offset)
          guard written > 0 else { break }
          offset += written
        }
      }
      close(descriptor)
      while !isStopped {
        let again = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if again >= 0 { close(again) }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }.start()
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  /// Stops writing or giving end of file, and waits (a few seconds at most) until the thread has ended.
  func stop() {
    lock.withLock { stopped = true }
    _ = finished.wait(timeout: .now() + 5)
  }
}
