import FXBatchTestSupport
import Foundation
import Testing

/// Bad and odd input found by trying to break fxbatch: each case keeps its data and says what is wrong.
@Suite("fxbatch end to end: bad input")
struct EndToEndRobustnessTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  @Test func aUserFileNamedLikeAnOutputIsNeverOverwritten() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let userData = "date,amount,from,to\n2020-01-02,5,GBP,EUR\n"
    try directory.write("p.converted.csv", userData)
    try directory.write("p.csv", "date,amount,from,to\n2020-01-02,100,USD,EUR\n")
    let result = try cli.run(["convert", "p.converted.csv", "p.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(try directory.read("p.converted.csv") == userData)
    #expect(result.standardError.contains("p.csv:1:1: error: the output p.converted.csv is an input file"))
    #expect(try directory.fileNames() == ["p.converted.converted.csv", "p.converted.csv", "p.csv"])
  }

  /// An output whose name is near the 255 bytes a name may have is written (its temporary name is cut short),
  /// for a CSV and for a workbook, and nothing else is left beside it.
  @Test func anOutputOfALongNameIsWritten() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let long = String(repeating: "a", count: 250) + ".csv"
    let result = try cli.run(["convert", "-q", "in.csv", "-o", long], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try directory.fileNames() == [long, "in.csv"].sorted())
    #expect(try directory.read(long).hasPrefix("date,amount,from,to,fx_rate"))
    try FileManager.default.copyItem(
      atPath: try Fixture.path("Workbooks", "equivalence.xlsx"), toPath: directory.path + "/book.xlsx")
    let book = String(repeating: "b", count: 249) + ".xlsx"
    let workbook = try cli.run(["convert", "-q", "book.xlsx", "-o", book], in: directory.url)
    #expect(workbook.status == 1, "\(workbook.standardError)")  // converted; some of its records are errors
    #expect(try directory.fileNames() == [long, book, "book.xlsx", "in.csv"].sorted())
  }

  /// The summary's first line says how many of the files were refused, so that its totals are not read as the
  /// whole run's.
  @Test func theSummaryCountsRefusedFiles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("ok.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    try directory.write("bad.csv", "foo,bar\n1,2\n")
    let result = try cli.run(["convert", "ok.csv", "bad.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.hasPrefix("fxbatch: 2 files (1 refused), 1 record: 1 ok, 0 fallback, 0 error\n"))
    let fine = try cli.run(["convert", "-o", "out.csv", "ok.csv"], in: directory.url)
    #expect(fine.standardError.hasPrefix("fxbatch: 1 file, 1 record: 1 ok, 0 fallback, 0 error\n"))
  }

  @Test func anAnnotatedFileIsNotAnnotatedTwice() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    #expect(try cli.run(["convert", "-q", "in.csv", "-o", "out.csv"], in: directory.url).status == 0)
    let again = try cli.run(["convert", "out.csv"], in: directory.url)
    #expect(again.status == 2)
    #expect(again.standardError.contains("out.csv:1:1: error: the file is already annotated by fxbatch"))
  }

  // "1,234" is a thousands-grouped 1234 in a US export, or 1.234 with a decimal comma: never guessed from a
  // `,` delimiter alone.
  @Test func groupedThousandsAreRefusedNotReadAsDecimals() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("thousands.csv", "date,amount,from,to\n2020-01-02,\"1,234\",USD,EUR\n2020-01-02,\"2,500\",USD,EUR\n")
    let result = try cli.run(["convert", "-q", "-o", "-", "thousands.csv"], in: directory.url)
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(
      lines[1].hasSuffix(
        #",error,"invalid_amount: ""1,234"" is 1234 with a decimal point but 1.234 with a decimal comma, and no amount in the file shows which it uses; give --decimal-separator""#
      ))
    #expect(lines[2].hasSuffix(#"and no amount in the file shows which it uses; give --decimal-separator""#))
    // Once one amount shows the mark (2.50: a decimal point), the grouping reads: 1,234 ÷ 1.1193 = 1102.47…
    try directory.write("thousands.csv", "date,amount,from,to\n2020-01-02,\"1,234\",USD,EUR\n2020-01-02,2.50,USD,EUR\n")
    let proven = try cli.run(["convert", "-q", "-o", "-", "thousands.csv"], in: directory.url)
    #expect(proven.status == 0)
    #expect(proven.standardOutput.contains("\"1,234\",USD,EUR,0.8934155276,1102.47,EUR,"))
  }

  @Test func textAfterAClosingQuoteIsNotJoinedIntoANumber() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("quotes.csv", "date,amount,from,to\n2020-01-02,\"1\"000,USD,EUR\n")
    let result = try cli.run(["convert", "-q", "-o", "-", "quotes.csv"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.standardOutput.contains(#"error,"invalid_amount: ""\""1\""000"" is not a number""#))
  }

  // 1 USD→EUR on 2020-01-02 = 1 / 1.1193 = 0.8934… → 0.89
  @Test func blankLinesBeforeTheHeaderAreKeptAndDoNotHideTheDelimiter() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("blank.csv", "\n\r\ndate;amount;from;to\n2020-01-02;1;USD;EUR\n")
    let result = try cli.run(["convert", "-q", "blank.csv"], in: directory.url)
    #expect(result.status == 0)
    #expect(try directory.read("blank.converted.csv").hasPrefix("\n\r\ndate;amount;from;to;fx_rate;"))
    #expect(try directory.read("blank.converted.csv").contains("2020-01-02;1;USD;EUR;0.8934155276;0.89;EUR;"))
  }

  @Test func headerTextInMessagesIsEscaped() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("escape.csv", "date,\u{1B}[31mRED\u{7},from,to\n2020-01-02,1,USD,EUR\n")
    let result = try cli.run(["convert", "escape.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(!result.standardError.contains("\u{1B}"))
    #expect(result.standardError.contains(#""\u{1b}[31mRED\u{7}""#))
  }

  @Test func contradictoryRatesBothWaysAreRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2020-01-02,EUR,USD,1.1\n2020-01-02,USD,EUR,0.5\n")
    try directory.write("in.csv", "amount,from,to\n1,EUR,USD\n")
    let result = try cli.run(["convert", "--rates", "rates.csv", "in.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError
        == "rates.csv:3:20: error: USD/EUR 0.5 and EUR/USD 1.1 on 2020-01-02 are not inverses; give one direction\n")
  }

  @Test func aPrivateInputGivesAPrivateOutput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("private.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: input)
    #expect(try cli.run(["convert", "-q", "private.csv"], in: directory.url).status == 0)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: directory.url.appendingPathComponent("private.converted.csv").path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test(arguments: [["-o", ""], ["--report", ""], ["--report", "/nonexistent-fxbatch-dir/report.json"]])
  func unusableOutputPathsAreUsageErrorsBeforeAnyWork(options: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let result = try cli.run(["convert"] + options + ["in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(try directory.fileNames() == ["in.csv"])
  }

  @Test func anInterruptedRunLeavesNoTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = ["convert", "-q", "-", "-o", "out.csv"]
    process.currentDirectoryURL = directory.url
    process.environment = ["TMPDIR": directory.path, "FXBATCH_TODAY": "2026-11-29"]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Standard input is being spooled and never ends: the run is mid-way when the signal comes.
    input.fileHandleForWriting.write(Data("date,amount,from,to\n2020-01-02,100,EUR,USD\n".utf8))
    let deadline = Date().addingTimeInterval(10)
    while try directory.fileNames().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    #expect(try directory.fileNames().count == 1, "the spool file exists while the run waits")
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + SIGTERM)
    #expect(try directory.fileNames().isEmpty)
  }

  // A file size limit (`ulimit -f`, a quota) ended the run by SIGXFSZ: exit 153 without a word, the output's
  // temporary file (100 KiB of it) left beside it, nothing saying the output was not written. The write now
  // fails as on a full disk: one line why, exit 2, no temporary file, and a lock there is kept as it was.
  @Test func aFileSizeLimitIsAWriteErrorNotASilentDeath() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = (0..<5_000).map { "2024-01-0\(2 + $0 % 3),\(1_000 + $0).25,USD,EUR" }
    try directory.write("in.csv", (["date,amount,from,to"] + lines).joined(separator: "\n") + "\n")
    #expect(try cli.run(["convert", "-q", "-o", "-", "--lock", "rates.lock", "in.csv"], in: directory.url).status == 0)
    let lock = try directory.read("rates.lock")
    var shell = CLIRunner(executable: URL(fileURLWithPath: "/bin/sh"))
    shell.environment = cli.environment
    // 1 KiB blocks: the output (about 200 KB) passes the limit; the shell's `exec` keeps its limit.
    let run = try shell.run(
      [
        "-c", #"ulimit -f 64 && exec "$0" convert -q -o out.csv --lock rates.lock --report report.json in.csv"#,
        cli.executable.path,
      ], in: directory.url)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains("in.csv:1:1: error: cannot write the output: File too large"), "\(run.standardError)")
    #expect(run.standardError.contains("the lock there is kept as it was"), "\(run.standardError)")
    let names = try directory.fileNames()
    #expect(names.sorted() == ["in.csv", "rates.lock", "report.json"], "\(names)")
    #expect(try directory.read("rates.lock") == lock)
  }

  // Issue 30: a SIGTERM that came right after the output's rename exited 143, as if the complete output had
  // been cut short. Once every file is in place the run is finished: a signal then exits with the run's own
  // status. Deterministic without a seam: standard error is a pipe the test filled beforehand, so the run
  // blocks printing its summary — after its output, lock and report are renamed into place — until the signal.
  @Test func aSignalAfterTheFilesAreInPlaceExitsWithTheRunsStatus() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = ["convert", "in.csv", "-o", "out.csv", "--lock", "rates.lock", "--report", "report.json"]
    process.currentDirectoryURL = directory.url
    process.environment = cli.environment
    let errors = Pipe()
    let writer = errors.fileHandleForWriting.fileDescriptor
    // Fill the pipe: blocking writes of the child's summary then wait for a reader.
    _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
    let block = [UInt8](repeating: 0x2E, count: 4096)
    while block.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
    _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) & ~O_NONBLOCK)
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let report = directory.url.appendingPathComponent("report.json").path
    let deadline = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: report), process.isRunning, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    // Blocked writing to the full pipe (where the kernel says; else give it a moment to get there).
    let waitChannel = "/proc/\(process.processIdentifier)/wchan"
    while process.isRunning, Date() < deadline,
      let channel = try? String(contentsOfFile: waitChannel, encoding: .utf8), channel != "0", !channel.contains("pipe")
    {
      Thread.sleep(forTimeInterval: 0.01)
    }
    Thread.sleep(forTimeInterval: 0.2)
    #expect(process.isRunning, "the run waits to print its summary")
    #expect(try directory.fileNames() == ["in.csv", "out.csv", "rates.lock", "report.json"])
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0, "the run converted every record; the signal interrupted nothing")
    #expect(try directory.read("out.csv").hasSuffix(",ok,\n"))
  }

  // `-o /dev/null` or a named pipe: written to directly, never replaced by a renamed file.
  @Test func aPipeOrDeviceOutputIsWrittenNotReplaced() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let fifo = directory.url.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let received = ReceivedBytes()
    // FileHandle opens the pipe for reading (waiting for the writer) and reads to its end.
    let reader = Thread { received.set(FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()) }
    reader.start()
    let result = try cli.run(["convert", "-q", "-o", "pipe", "in.csv"], in: directory.url)
    #expect(result.status == 0)
    let deadline = Date().addingTimeInterval(10)
    while received.get() == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    #expect(String(decoding: received.get() ?? Data(), as: UTF8.self).contains("2020-01-02,100,EUR,USD,1.1193,111.93,USD,"))
    let attributes = try FileManager.default.attributesOfItem(atPath: fifo)
    #expect(try #require(attributes[.type] as? FileAttributeType) != .typeRegular, "the pipe is still a pipe")
  }
}

/// Bytes handed over from a reader thread; guarded by a lock.
private final class ReceivedBytes: @unchecked Sendable {
  // @unchecked: every access goes through `lock`.
  private let lock = NSLock()
  private var data: Data?
  func set(_ value: Data) { lock.withLock { data = value } }
  func get() -> Data? { lock.withLock { data } }
}
