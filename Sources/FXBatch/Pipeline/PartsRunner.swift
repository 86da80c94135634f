import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the parts of one big file on all cores: the one parts runner every format uses for both passes.
///
/// A format splits its file at record boundaries it has found itself (``BatchJob/lineStarts(_:targets:after:size:)``
/// for line-based formats, its own scanner otherwise) and hands the runner one closure that reads a part. Pass 1
/// (``scan(parts:_:)``) gives each part's findings in order; pass 2 (``convert(parts:into:temporaryPrefix:_:)``)
/// lets part 0 write straight to the output while every other part writes an unnamed temporary file
/// (``UnnamedTemporaryFile``: nothing is left behind however the process ends), appended in part order once all
/// are done.
///
/// The closures run at once on several threads (`DispatchQueue.concurrentPerform`, which returns when all are
/// done). They may read what they capture, but each must write only state it creates for its own part; the
/// output sink handed to part 0 is used by part 0 alone.
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
  /// - Parameters:
  ///   - parts: how many parts (at least 1).
  ///   - sink: the file's output; part 0 writes to it directly.
  ///   - temporaryPrefix: the temporary files' name prefix while they are created.
  ///   - body: converts one part (its index from 0), writing to the sink it is given, and returns its result.
  /// - Returns: the parts' results in order.
  /// - Throws: the first failing part's error, in part order, or the error of joining the outputs; the output
  ///   then holds an unknown prefix of the file (the caller discards it).
  static func convert<Outcome>(
    parts: Int, into sink: ByteSink, temporaryPrefix: String, _ body: (Int, ByteSink) throws -> Outcome
  ) throws -> [Outcome] {
    let outcomes = scan(parts: parts) { part throws -> (Outcome, Int32?) in
      if part == 0 { return (try body(0, sink), nil) }
      let descriptor = try UnnamedTemporaryFile.create(prefix: temporaryPrefix)
      do {
        let partSink = ByteSink(descriptor: descriptor)
        let outcome = try body(part, partSink)
        try partSink.flush()
        return (outcome, descriptor)
      } catch {
        close(descriptor)
        throw error
      }
    }
    defer {
      for case .success((_, let descriptor?)) in outcomes { close(descriptor) }
    }
    var results: [Outcome] = []
    for outcome in outcomes {
      let (result, descriptor) = try outcome.get()
      if let descriptor { try append(descriptor, to: sink) }
      results.append(result)
    }
    return results
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

  /// A part that did not report (never expected: `concurrentPerform` runs every iteration).
  struct PartNotRun: Error, CustomStringConvertible {
    let part: Int
    var description: String { "part \(part) of the file was not read" }
  }
}
