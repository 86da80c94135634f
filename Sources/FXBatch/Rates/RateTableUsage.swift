import Synchronization

/// The rows (publication days) and columns (pairs) of a ``RateTable`` that its date rules read during a run: what
/// a lock file keeps (``LockFile``).
///
/// Marked where a decision is made once and then reused — ``RateTable/publicationRow(for:maxStaleness:)`` per
/// distinct day, ``QuoteBook/plan(for:in:)`` per pair, ``RateTable/quote(for:maxStaleness:)`` per general-path
/// record — never per fast-path record. The converters of a file's parts on other threads share the one
/// instance, so their marks need no merging.
final class RateTableUsage: Sendable {
  private let marks: Mutex<(rows: [Bool], columns: [Bool])>

  /// - Parameters:
  ///   - rows: the table's row count (1 for an undated table).
  ///   - columns: its column count.
  init(rows: Int, columns: Int) {
    marks = Mutex((Array(repeating: false, count: rows), Array(repeating: false, count: columns)))
  }

  func mark(row: Int) { marks.withLock { $0.rows[row] = true } }

  func mark(columns: [Int]) {
    marks.withLock { marks in
      for column in columns { marks.columns[column] = true }
    }
  }

  /// The rows and the columns read, ascending.
  var used: (rows: [Int], columns: [Int]) {
    marks.withLock { marks in
      (marks.rows.indices.filter { marks.rows[$0] }, marks.columns.indices.filter { marks.columns[$0] })
    }
  }
}
