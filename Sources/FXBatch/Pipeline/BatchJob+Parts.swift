import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What every format's parts have in common: their results, where they start, and when a file is worth
/// splitting (``PartsRunner`` runs them).
extension BatchJob {
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

  /// Adds up the results of a file's parts (CSV, JSON Lines, XML).
  func total(of results: [PartResult]) -> PartResult {
    var total = PartResult(ledger: ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies))
    for result in results { total.add(result) }
    return total
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

  static func fileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_size)
  }
}

/// A value handed to the threads of ``DispatchQueue/concurrentPerform(iterations:execute:)``: each thread
/// reads it and owns its copies. ``PartsRunner`` wraps its closures in it; the only shared objects the
/// threads touch are the first part's reader and the output sink, which only thread 0 uses.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
