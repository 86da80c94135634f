import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the parts of one big file on all cores: the one parts runner every format uses for both passes.
///
/// A format splits its file at record boundaries it has found itself (``lineStarts(_:targets:after:size:)``
/// for line-based formats, its own scanner otherwise) and hands the runner one closure that reads a part. Pass 1
/// (``scan(parts:_:)``) gives each part's findings in order; pass 2
/// (``convert(parts:into:temporaryPrefix:temporaryDirectory:_:)``) lets part 0 write straight to the output while
/// every other part writes an unnamed temporary file (``UnnamedTemporaryFile``: nothing is left behind however
/// the process ends), appended in part order once all are done.
///
/// The closures run at once on several threads (`DispatchQueue.concurrentPerform`, which returns when all are
/// done). They may read what they capture, but each must write only state it creates for its own part; the
/// output sink handed to part 0 is used by part 0 alone.
/// Where a part of a split file starts: a file offset, and what else the format's reader needs there.
protocol PartBoundary {
  /// The 0-based file offset of the part's first record.
  var offset: Int { get }
}

/// One part of a file split where its parts start (`starts`, in file order): part 0 reads from where the
/// format's reader is (or from `first`), part *i* from `starts[i - 1]` up to where the next part starts, the
/// last one to the end. The one rule both passes use to place a part.
struct FilePart<Start: PartBoundary> {
  /// The part's index, from 0.
  let index: Int
  /// Where the part starts; `nil` for part 0.
  let start: Start?
  /// Where the next part starts; `nil` for the last part.
  let next: Start?

  init(_ index: Int, of starts: [Start]) {
    self.index = index
    start = index == 0 ? nil : starts[index - 1]
    next = index < starts.count ? starts[index] : nil
  }

  /// The part's bytes: from its start (`first` for part 0) up to the next part's start, or to `end`.
  func range(from first: Int = 0, to end: Int) -> Range<Int> {
    (start?.offset ?? first)..<(next?.offset ?? end)
  }
}

enum PartsRunner {
  /// Pass 1 in parts.
  ///
  /// - Parameters:
  ///   - parts: how many parts (at least 1).
  ///   - body: reads one part (its index from 0) and returns its findings.
  /// - Returns: every part's findings or error, in part order.
  static func scan<Findings>(parts: Int, _ body: (Int) throws -> Findings) -> [Result<Findings, Error>] {
    let results = Mutex<[Int: UncheckedSendable<Result<Findings, Error>>]>([:])
    withoutActuallyEscaping(body) { body in
      let work = UncheckedSendable(body)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let result = UncheckedSendable(Result { try work.value(part) })
        results.withLock { $0[part] = result }
      }
    }
    let found = results.withLock { $0 }
    return (0..<parts).map { found[$0]?.value ?? .failure(PartNotRun(part: $0)) }
  }

  /// Pass 2 in parts.
  ///
  /// A part whose temporary file cannot be made or written (`$TMPDIR` full, missing, past `ulimit -f`) is
  /// converted again once the parts before it are in the output, straight to it: the file is then written in
  /// one pass from there, with the same bytes.
  ///
  /// - Parameters:
  ///   - parts: how many parts (at least 1).
  ///   - sink: the file's output; part 0 writes to it directly.
  ///   - temporaryPrefix: the temporary files' name prefix while they are created.
  ///   - temporaryDirectory: where the temporary files are created (`$TMPDIR`, else `/tmp`).
  ///   - body: converts one part (its index from 0), writing to the sink it is given, and returns its result; it
  ///     may be called twice for a part (above), so each call starts the part afresh.
  /// - Returns: the parts' results in order.
  /// - Throws: the first failing part's error, in part order, or the error of joining the outputs; the output
  ///   then holds an unknown prefix of the file (the caller discards it).
  static func convert<Outcome>(
    parts: Int, into sink: ByteSink, temporaryPrefix: String, temporaryDirectory: String = NSTemporaryDirectory(),
    _ body: (Int, ByteSink) throws -> Outcome
  ) throws -> [Outcome] {
    let outcomes = scan(parts: parts) { part throws -> PartOutput<Outcome> in
      if part == 0 { return .written(try body(0, sink)) }
      let descriptor: Int32
      do { descriptor = try UnnamedTemporaryFile.create(prefix: temporaryPrefix, in: temporaryDirectory) } catch {
        return .notKept
      }
      let partSink = ByteSink(descriptor: descriptor)
      do {
        let outcome = try body(part, partSink)
        try partSink.flush()
        return .kept(outcome, descriptor)
      } catch {
        close(descriptor)
        if partSink.hasFailed { return .notKept }
        throw error
      }
    }
    defer {
      for case .success(.kept(_, let descriptor)) in outcomes { close(descriptor) }
    }
    var results: [Outcome] = []
    for (part, outcome) in outcomes.enumerated() {
      switch try outcome.get() {
      case .written(let result): results.append(result)
      case .kept(let result, let descriptor):
        try append(descriptor, to: sink)
        results.append(result)
      case .notKept: results.append(try body(part, sink))
      }
    }
    return results
  }

  /// Where a part's output went in ``convert(parts:into:temporaryPrefix:temporaryDirectory:_:)``.
  private enum PartOutput<Outcome> {
    /// Into the file's output (part 0).
    case written(Outcome)
    /// Into a temporary file, open on the descriptor, to be appended in order.
    case kept(Outcome, Int32)
    /// Nowhere: no temporary file could hold it, so it is converted again into the output in its turn.
    case notKept
  }

  /// Copies a file's bytes, from its start, to a sink (with `sendfile(2)` where the sink allows it).
  static func append(_ descriptor: Int32, to sink: ByteSink) throws {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw OutputError.writeFailed(reason: "cannot reread a part: \(String(cString: strerror(errno)))")
    }
    if try sink.transfer(from: descriptor) { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = FileBytes.read(from: descriptor, into: &buffer)
      guard count >= 0 else { throw OutputError.writeFailed(reason: String(cString: strerror(errno))) }
      if count == 0 { return }
      try sink.write(buffer[0..<count])
    }
  }

  /// The offsets of the first line after each target offset (after the first line feed at or after it), for
  /// parts of a file where a record starts after every line feed (CSV without quoted fields, JSON Lines); `nil`
  /// when one is missing, not after `first`, or not after the one before.
  static func lineStarts(_ readPath: String, targets: [Int], after first: Int, size: Int) -> [Int]? {
    var starts: [Int] = []
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var window = [UInt8](repeating: 0, count: 1 << 16)
    for target in targets {
      let count = FileBytes.read(from: descriptor, into: &window, fileOffset: target - 1)
      guard count > 0, let feed = window[0..<count].firstIndex(of: 10) else { return nil }
      let start = target - 1 + feed + 1
      guard start > first, start > (starts.last ?? 0), start < size else { return nil }
      starts.append(start)
    }
    return starts
  }

  /// The file offsets near which parts should start, for a file of `fileSize` bytes in `parts` parts; none for a
  /// file too small to be worth it.
  static func partTargets(fileSize: Int, parts: Int, minimumSize: Int) -> [Int] {
    guard parts > 1, fileSize >= minimumSize else { return [] }
    return (1..<parts).map { fileSize / parts * $0 }
  }

  /// The size of a regular file; 0 for anything else or an error.
  static func fileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_size)
  }

  /// A part that did not report (never expected: `concurrentPerform` runs every iteration).
  struct PartNotRun: Error, CustomStringConvertible {
    let part: Int
    var description: String { "part \(part) of the file was not read" }
  }
}

/// What converting a part of a file gave.
struct PartResult {
  var counts = RunReport.Counts()
  var withoutDate = 0
  var ledger: ReconciliationLedger
  /// The decimal-mark evidence of the records (read only for a provisional scan).
  var inference = DecimalMarkInference()

  mutating func add(_ other: PartResult) {
    counts.add(other.counts)
    withoutDate += other.withoutDate
    ledger.add(other.ledger)
    inference.add(other.inference)
  }
}

/// A value handed to the threads of ``DispatchQueue/concurrentPerform(iterations:execute:)``: each thread
/// reads it and owns its copies. ``PartsRunner`` wraps its closures in it; the only shared objects the
/// threads touch are the first part's reader and the output sink, which only thread 0 uses.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
