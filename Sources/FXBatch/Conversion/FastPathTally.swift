import Synchronization

/// How many records a run's fast path converted (``TableConverter``, through the engine's per-record rule), for
/// tests that check a run took it (``BatchOptions/fastPathTally``): the fast and the general path write the same
/// bytes, so the output alone cannot say which one wrote a record.
///
/// Added to once per part or sheet, never per record.
final class FastPathTally: Sendable {
  private let count = Mutex(0)

  /// The records converted so far.
  var records: Int { count.withLock { $0 } }

  /// Adds `records` converted records.
  func add(_ records: Int) {
    guard records > 0 else { return }
    count.withLock { $0 += records }
  }
}
