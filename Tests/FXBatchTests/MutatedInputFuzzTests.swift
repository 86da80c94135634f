import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 13: bad input never crashes, never hangs and never loses a record. The files in `Samples/` and small
/// generated files in every format are mutated with a fixed seed — bytes flipped, cut short, delimiters and
/// quotes doubled or dropped, huge numbers, deep nesting, random bytes — and each is converted by ``BatchJob``
/// in this process under a time limit per case. A file is either refused (a file error, nothing written) or
/// converted with one annotated record per record of the input, and the report's counts add up.
@Suite("mutated input: no crash, no hang, every record accounted for")
struct MutatedInputFuzzTests {
  /// The seed: the same cases on every run.
  static let seed: UInt64 = 20_261_201
  /// Mutated files per starting file.
  static let casesPerFile = 36
  /// The most seconds one case may take (a debug build on a busy 2-core machine converts each in well under one).
  static let caseTimeLimit = 10.0

  /// The starting files: the samples, and small generated files in every format.
  static func startingFiles() throws -> [(name: String, bytes: [UInt8])] {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    var files: [(String, [UInt8])] = []
    for name in [
      "bank-export-semicolon.csv", "invoices-2019-2025.csv", "payments.json", "transfers.jsonl", "orders.xml",
    ] {
      files.append((name, [UInt8](try Data(contentsOf: samples.appendingPathComponent(name)))))
    }
    let generated: [(String, String)] = [
      ("small.csv", "date,amount,from,to\n2020-01-02,1.50,EUR,USD\n2020-01-03,\"2,5\",GBP,EUR\r\n2020-01-06,3,USD,JPY\n"),
      (
        "small.jsonl",
        #"{"date":"2020-01-02","amount":"1.50","from":"EUR","to":"USD"}"# + "\n"
          + #"{"date":"2020-01-03","amount":2.5,"from":"GBP","to":"EUR","n":{"a":[1,2]}}"# + "\r\n"
          + #"{"date":"2020-01-06","amount":"3","from":"USD","to":"JPY"}"# + "\n"
      ),
      (
        "small.json",
        #"{"data":{"items":[{"date":"2020-01-02","amount":"1.50","from":"EUR","to":"USD"},"#
          + #"{"date":"2020-01-03","amount":2.5,"from":"GBP","to":"EUR"}]}}"#
      ),
      (
        "small.xml",
        "<?xml version=\"1.0\"?>\n<rs>\n<r date=\"2020-01-02\" amount=\"1.50\" from=\"EUR\" to=\"USD\"/>\n"
          + "<r><date>2020-01-03</date><amount>2.5</amount><from>GBP</from><to>EUR</to></r>\n</rs>\n"
      ),
    ]
    for (name, text) in generated { files.append((name, Array(text.utf8))) }
    return files
  }

  /// Bytes that steer mutations into each format's corners.
  static let markBytes = Array(#",;"'\{}[]:<>/=&!?-.e"#.utf8) + [0x09, 0x0A, 0x0D, 0x00, 0xC3, 0xA9, 0xFF]

  /// One to four mutations of `bytes`.
  static func mutate(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
      let position = Int.random(in: 0...bytes.count, using: &generator)
      let inside = position < bytes.count
      switch Int.random(in: 0..<10, using: &generator) {
      case 0 where inside:  // flip one bit
        bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
      case 1:  // cut short
        bytes.removeSubrange(position...)
      case 2 where inside:  // a delimiter, quote or bracket doubled
        if let mark = bytes[position...].firstIndex(where: { markBytes.contains($0) }) {
          bytes.insert(bytes[mark], at: mark)
        }
      case 3 where inside:  // a delimiter, quote or bracket dropped
        if let mark = bytes[position...].firstIndex(where: { markBytes.contains($0) }) { bytes.remove(at: mark) }
      case 4:  // a huge number
        let digits = String(repeating: "9", count: Int.random(in: 30...5000, using: &generator))
        bytes.insert(contentsOf: Array((Bool.random(using: &generator) ? digits + ".5" : "1e" + digits).utf8), at: position)
      case 5:  // deep nesting
        let depth = Int.random(in: 100...2000, using: &generator)
        let open = ["[", "{\"a\":", "<a>", "\""].randomElement(using: &generator) ?? "["
        bytes.insert(contentsOf: Array(String(repeating: open, count: depth).utf8), at: position)
      case 6:  // random bytes
        let count = Int.random(in: 1...64, using: &generator)
        bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: position)
      case 7 where inside:  // a mark byte written over another
        bytes[position] = markBytes.randomElement(using: &generator) ?? 0
      case 8 where !bytes.isEmpty:  // a line repeated
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let line = lines[Int.random(in: 0..<lines.count, using: &generator)]
        bytes.insert(contentsOf: line + [0x0A], at: position)
      default:  // a stretch removed
        if inside { bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...40, using: &generator))) }
      }
    }
    return bytes
  }

  /// What one case found wrong, or `nil`.
  static func check(name: String, bytes: [UInt8], in directory: TemporaryDirectory) throws -> String? {
    let input = try directory.write(bytes, named: name)
    let output = directory.url.appendingPathComponent("out-" + name).path
    unlink(output)
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [input]
    options.destination = .file(output)
    options.recordsPath = name == "small.json" ? ["data", "items"] : []
    options.undated = true
    options.parallelMinimumSize = 4 << 10  // the parts path too, on the bigger samples
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    guard let file = report.files.first, report.files.count == 1 else { return "no file in the report" }
    let counts = file.counts
    let written = FileManager.default.contents(atPath: output).map { [UInt8]($0) }
    if let fileError = file.fileError {
      if written != nil { return "refused (\(fileError)) but an output was written" }
      return counts.records == 0 ? nil : "refused but counted \(counts.records) records"
    }
    guard let written else { return "converted but no output" }
    guard counts.records == counts.ok + counts.fallback + counts.error else { return "counts do not add up: \(counts)" }
    guard counts.errorsByCode.values.reduce(0, +) == counts.error else { return "error codes do not add up: \(counts)" }
    let annotated = try annotatedRecords(in: written, input: bytes, name: name, directory: directory)
    guard annotated == counts.records else { return "\(counts.records) records counted, \(annotated) annotated" }
    if let present = try recordsPresent(input, name: name), present != counts.records {
      return "\(present) records in the input, \(counts.records) counted"
    }
    return nil
  }

  /// The annotated records of an output: records after the header (CSV), non-blank lines (JSON Lines),
  /// `"fx_status"` members (JSON) or `<fx ` elements (XML) that the input did not have.
  static func annotatedRecords(in output: [UInt8], input: [UInt8], name: String, directory: TemporaryDirectory) throws
    -> Int
  {
    func occurrences(_ needle: String, in bytes: [UInt8]) -> Int {
      let pattern = Array(needle.utf8)
      guard bytes.count >= pattern.count else { return 0 }
      return (0...(bytes.count - pattern.count)).count { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
    switch (name as NSString).pathExtension {
    case "json": return occurrences(#""fx_status""#, in: output) - occurrences(#""fx_status""#, in: input)
    case "xml": return occurrences("<fx ", in: output) - occurrences("<fx ", in: input)
    default: return try recordsPresent(directory.write(output, named: "written-" + name), name: name) ?? -1
    }
  }

  /// The records of a CSV or JSON Lines file as its reader splits them (non-blank records after a CSV header,
  /// non-blank JSON Lines lines); `nil` for other formats, whose records only the converter finds.
  static func recordsPresent(_ path: String, name: String) throws -> Int? {
    switch (name as NSString).pathExtension {
    case "csv":
      let reader = try CSVReader(path: path)
      var records = 0
      while let record = try reader.next() { records += record.isBlank ? 0 : 1 }
      return max(0, records - 1)  // the first non-blank record is the header
    case "jsonl":
      let reader = try JSONLinesReader(path: path)
      var records = 0
      while let line = try reader.next() { records += line.isBlank ? 0 : 1 }
      return records
    default: return nil
    }
  }

  @Test(.timeLimit(.minutes(3)))
  func mutatedFilesAreRefusedOrFullyConverted() throws {
    var generator = SplitMix64(seed: Self.seed)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var cases = 0
    var refused = 0
    for (name, original) in try Self.startingFiles() {
      for index in 0..<Self.casesPerFile {
        let bytes = index == 0 ? original : Self.mutate(original, using: &generator)
        // On another thread, so that a case that hangs fails the test instead of stopping it.
        let outcome = CaseOutcome()
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        Thread {
          outcome.set(Result { try Self.check(name: name, bytes: bytes, in: directory) })
          done.signal()
        }.start()
        guard done.wait(timeout: .now() + Self.caseTimeLimit) == .success else {
          Issue.record(
            "\(name) case \(index) took more than \(Self.caseTimeLimit) s: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
          return
        }
        let seconds = Date().timeIntervalSince(started)
        cases += 1
        switch outcome.get() {
        case .success(nil): break
        case .success(let problem?):
          Issue.record("\(name) case \(index): \(problem) (input: \(String(decoding: bytes.prefix(300), as: UTF8.self)))")
        case .failure(let error): Issue.record("\(name) case \(index): \(error)")
        case nil: Issue.record("\(name) case \(index): no outcome")
        }
        if index == 0 { continue }
        let output = directory.url.appendingPathComponent("out-" + name).path
        if !FileManager.default.fileExists(atPath: output) { refused += 1 }
        #expect(seconds < Self.caseTimeLimit)
      }
    }
    #expect(cases == 9 * Self.casesPerFile)
    // The mutations reach both outcomes: some files refused, most converted.
    #expect(refused > 0 && refused < cases / 2 + cases / 4, "\(refused) of \(cases) refused")
  }
}

/// A case's result handed from its thread; the semaphore orders the write before the read.
private final class CaseOutcome: @unchecked Sendable {
  // Safe: written once by the case's thread before it signals, read only after the wait.
  private var value: Result<String?, any Error>?
  func set(_ result: Result<String?, any Error>) { value = result }
  func get() -> Result<String?, any Error>? { value }
}
