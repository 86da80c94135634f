import Synchronization

/// The cells of a ``RateTable``, row-major (`row × width + column`): either held as values, or read on first
/// use from the text of the ECB history compiled into the binary (``EmbeddedECBHistory``), so that a run
/// touching a few days does not parse 27 years of rates at start.
public struct RateGrid: Sendable {
  private enum Storage: Sendable {
    case cells([ExactDecimal?])
    case lazy(LazyRows)
    /// Significand and scale per cell (scale ``CompactCells/absent``: no rate): 9 bytes a cell instead of 48,
    /// for a table of positive rates that fit 64 bits (every published reference rate).
    case compact(CompactCells)
  }

  /// Cells as 64-bit significands and scales, in two arrays.
  struct CompactCells: Sendable {
    static let absent: UInt8 = 0xFF
    var significands: [UInt64] = []
    var scales: [UInt8] = []

    subscript(index: Int) -> ExactDecimal? {
      guard scales[index] != Self.absent else { return nil }
      return ExactDecimal(significand: Int128(significands[index]), scale: Int(scales[index]))
    }
  }

  private let storage: Storage
  /// How many cells (rows × width).
  public let count: Int

  public init(_ cells: [ExactDecimal?]) {
    storage = .cells(cells)
    count = cells.count
  }

  init(lazy rows: LazyRows) {
    storage = .lazy(rows)
    count = rows.lineRanges.count * rows.columns.count
  }

  init(compact cells: CompactCells) {
    storage = .compact(cells)
    count = cells.scales.count
  }

  /// A cell: the rate, or `nil` when none was published.
  public subscript(index: Int) -> ExactDecimal? {
    switch storage {
    case .cells(let cells): return cells[index]
    case .lazy(let rows): return rows.value(at: index)
    case .compact(let cells): return cells[index]
    }
  }

  /// The cells of one row, read together (the lazy grid parses a row at a time).
  func row(_ row: Int, width: Int) -> [ExactDecimal?] {
    switch storage {
    case .cells(let cells): return Array(cells[row * width..<(row + 1) * width])
    case .lazy(let rows): return rows.row(row)
    case .compact(let cells): return (row * width..<(row + 1) * width).map { cells[$0] }
    }
  }

  /// Rows of ECB-history text (`YYYY-MM-DD,1.0856,160.51,…,`) parsed when first asked, kept behind a lock.
  final class LazyRows: Sendable {
    /// Static text: the history compiled into the binary, alive as long as the process.
    let text: StaticString
    /// Each row's line in ``bytes``, rows in the table's (ascending day) order.
    let lineRanges: [Range<Int>]
    /// The field index of each column.
    let columns: [Int]
    private let parsed: Mutex<[[ExactDecimal?]?]>

    init(text: StaticString, lineRanges: [Range<Int>], columns: [Int]) {
      self.text = text
      self.lineRanges = lineRanges
      self.columns = columns
      parsed = Mutex(Array(repeating: nil, count: lineRanges.count))
    }

    func value(at index: Int) -> ExactDecimal? {
      let width = columns.count
      return row(index / width)[index % width]
    }

    func row(_ row: Int) -> [ExactDecimal?] {
      if let found = parsed.withLock({ $0[row] }) { return found }
      let values = parse(row)
      parsed.withLock { $0[row] = values }
      return values
    }

    /// The line's cells; a cell that is not a positive decimal (`N/A`, empty) is `nil`. The compiled-in
    /// history is checked in full by the tests (`EmbeddedECBHistoryTests`).
    private func parse(_ row: Int) -> [ExactDecimal?] {
      let bytes = ByteView(text)
      let line = lineRanges[row]
      var fields: [Range<Int>] = []
      var start = line.lowerBound
      for position in line.lowerBound...line.upperBound where position == line.upperBound || bytes[position] == UInt8(ascii: ",")
      {
        fields.append(start..<position)
        start = position + 1
      }
      return columns.map { column in
        guard column < fields.count, let value = ExactDecimal(plainUTF8: bytes.slice(fields[column]).buffer),
          value.significand > 0
        else { return nil }
        return value
      }
    }
  }
}
