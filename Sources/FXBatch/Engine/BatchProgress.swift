import Foundation
import Synchronization

/// How far a run is through one pass over one file, for a progress display (`fxbatch` draws a bar on standard
/// error when it is a terminal).
public struct BatchProgress: Sendable {
  /// The input as given.
  public let file: String
  /// 1: reading (fields, decimal mark, keys); 2: converting and writing.
  public let pass: Int
  /// Bytes of the file done so far, and its size.
  public let bytesDone: Int
  public let bytesTotal: Int
  /// Records done in this pass, and records per second since the pass started.
  public let records: Int
  public let recordsPerSecond: Double
}

/// Counts the bytes and records of one pass over a file, from any number of threads, and calls the run's
/// progress handler at most ten times a second.
final class ProgressMeter: Sendable {
  private let file: String
  private let pass: Int
  private let bytesTotal: Int
  private let handler: @Sendable (BatchProgress) -> Void
  private let started = Date()
  private let state = Mutex<(bytes: Int, records: Int, lastShown: Date)>((0, 0, .distantPast))

  /// The records between two reports of a loop.
  static let batch = 1 << 14

  /// A record loop's side of a meter: counts records and reports the bytes and records done every ``batch``
  /// records.
  struct Ticker {
    let meter: ProgressMeter?
    private var records = 0
    private var reported: Int

    /// - Parameter offset: the file offset the loop starts at.
    init(_ meter: ProgressMeter?, from offset: Int) {
      self.meter = meter
      reported = offset
    }

    /// Counts one record; `offset` is the file offset after it.
    @inline(__always)
    mutating func tick(at offset: Int) {
      guard let meter else { return }
      records += 1
      guard records == ProgressMeter.batch else { return }
      meter.add(bytes: offset - reported, records: records)
      reported = offset
      records = 0
    }
  }

  init?(file: String, pass: Int, bytesTotal: Int, handler: (@Sendable (BatchProgress) -> Void)?) {
    guard let handler else { return nil }
    self.file = file
    self.pass = pass
    self.bytesTotal = bytesTotal
    self.handler = handler
  }

  /// Adds bytes and records done.
  func add(bytes: Int, records: Int) {
    let now = Date()
    let shown: BatchProgress? = state.withLock { state in
      state.bytes += bytes
      state.records += records
      guard now.timeIntervalSince(state.lastShown) >= 0.1 else { return nil }
      state.lastShown = now
      let elapsed = max(now.timeIntervalSince(started), 0.001)
      return BatchProgress(
        file: file, pass: pass, bytesDone: min(state.bytes, bytesTotal), bytesTotal: bytesTotal, records: state.records,
        recordsPerSecond: Double(state.records) / elapsed)
    }
    if let shown { handler(shown) }
  }
}
