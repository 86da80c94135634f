import FXBatchTestSupport
import Foundation
import Testing

/// Issue 13: a server streaming without end, a gzip bomb or endless header lines drove the process to 2.3–3.5 GB
/// with three requests, although each answer was cut off at its 32 MB limit (FoundationNetworking kept
/// buffering the cancelled transfers). With libcurl the transfer stops at the limit, so memory stays within the
/// transfers in flight times the limit. Each run is measured from outside (`VmHWM` of the child process).
@Suite("hostile HTTP answers: bounded memory")
struct HostileHTTPMemoryTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// `megabytes` MB of spaces, gzip-compressed by `gzip(1)` (about 1 KB per MB).
  static func gzipBomb(megabytes: Int) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "head -c \(megabytes << 20) /dev/zero | tr '\\0' ' ' | gzip -c -1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return data
  }

  /// Six keys, two of each kind of hostile answer, three in flight at a time (`--jobs 3`): every key ends in its
  /// own error, every record is written, and the peak stays under 3 × 32 MB plus the runtime and the embedded
  /// rates (about 40 MB) and the answers' growth, 200 MB in all; it was 2.3–3.5 GB.
  @Test(.timeLimit(.minutes(2)))
  func endlessBodiesBombsAndHeadersStayBounded() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let bomb = try Self.gzipBomb(megabytes: 512)
    #expect(bomb.count < 4 << 20, "the bomb is \(bomb.count) bytes")
    let endless = ScriptedResponse.endless(Data(repeating: 0x20, count: 64 << 10), headers: ["Content-Type": "application/json"])
    let compressed = ScriptedResponse(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: bomb)
    server.route("/v1/2024-03-01", [endless])
    server.route("/v1/2024-03-04", [compressed])
    server.route("/v1/2024-03-05", [.endlessHeaders])
    server.route("/v1/2024-03-06", [endless])
    server.route("/v1/2024-03-07", [compressed])
    server.route("/v1/2024-03-08", [.endlessHeaders])
    let days = ["2024-03-01", "2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"]
    try directory.write("in.csv", "date,amount,from,to\n" + days.map { "\($0),100,EUR,USD\n" }.joined())
    let output = directory.url.appendingPathComponent("out.csv").path
    let run = try MeasuredRun.run(
      cli.executable,
      [
        "convert", "-q", "--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString, "--no-cache",
        "--retries", "0", "--jobs", "3", "-o", output, directory.url.appendingPathComponent("in.csv").path,
      ],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    #expect(run.status == 3, "\(run.standardError)")
    #expect(run.peakResidentKiB > 0, "no memory reading")
    #expect(run.peakResidentKiB < 200 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    print("hostile HTTP run: peak \(run.peakResidentKiB) KiB in \(run.seconds) s")
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.count == 7)
    for (index, line) in lines.dropFirst().enumerated() {
      let expected = index % 3 == 2 ? "answer's header fields are larger than 256 KB" : "answer is larger than 32 MB"
      #expect(line.hasSuffix(",error,bad_response: the \(expected)"), "\(line)")
    }
  }
}
