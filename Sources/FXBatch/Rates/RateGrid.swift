import Synchronization

/// The cells of a ``RateTable``, addressed row-major (`row × width + column`): held as values, or read on first
/// use from the text of the ECB history compiled into the binary (``EmbeddedECBHistory``), so that a run
/// touching a few days does not parse 27 years of rates at start.
///
/// A grid built from a source's rates (``Builder``) is dense only when most of its cells hold a rate (the ECB's
/// history: 7,000 days × 40 currencies, nearly full); otherwise it keeps only the rates present, per column
/// (``SparseCells``), so that its memory follows the rates a source has, not its days × pairs: a file of
/// 400,000 rates over 200,000 days and 200 pairs would be a grid of 40 million cells.
public struct RateGrid: Sendable {
  private enum Storage: Sendable {
    case cells([ExactDecimal?])
    case lazy(LazyRows)
    /// Significand and scale per cell (scale ``CompactCells/absent``: no rate): 9 bytes a cell instead of 48,
    /// for a table of positive rates that fit 64 bits (every published reference rate).
    case compact(CompactCells)
    /// Only the cells that hold a rate, per column.
    case sparse(SparseCells)
  }

  /// The rates present, per column: column `c`'s rows (ascending) and values are at
  /// `columnStarts[c]..<columnStarts[c + 1]`; a cell is found by binary search among its column's rows.
  struct SparseCells: Sendable {
    let rowCount: Int
    let width: Int
    var columnStarts: [Int]
    var rows: [Int32]
    var values: [ExactDecimal]

    /// The position of a cell in ``rows`` and ``values``, or `nil` when it holds no rate.
    func position(row: Int, column: Int) -> Int? {
      let start = lowerBound(row, column: column)
      return start < columnStarts[column + 1] && Int(rows[start]) == row ? start : nil
    }

    /// The first position of a column whose row is at least `row`.
    func lowerBound(_ row: Int, column: Int) -> Int {
      var low = columnStarts[column]
      var high = columnStarts[column + 1]
      while low < high {
        let middle = (low + high) / 2
        if Int(rows[middle]) < row { low = middle + 1 } else { high = middle }
      }
      return low
    }

    subscript(index: Int) -> ExactDecimal? {
      position(row: index / width, column: index % width).map { values[$0] }
    }
  }

  /// Collects a source's rates cell by cell, then makes the grid that holds them in the least memory
  /// (``grid(rows:width:)``).
  struct Builder {
    private(set) var rows: [Int32] = []
    private(set) var columns: [Int32] = []
    /// Each rate as significand and scale (17 bytes with its row and column; an `ExactDecimal` takes 32 alone):
    /// a 10 MB lock of `1` cells holds 5 million rates. A rate that does not fit has scale
    /// ``CompactCells/absent`` and is kept in ``wide``.
    private var significands: [UInt64] = []
    private var scales: [UInt8] = []
    private var wide: [Int: ExactDecimal] = [:]

    init() {}

    var count: Int { scales.count }

    /// The rate added `index`th.
    func value(_ index: Int) -> ExactDecimal {
      if scales[index] == CompactCells.absent, let found = wide[index] { return found }
      return ExactDecimal(significand: Int128(significands[index]), scale: Int(scales[index]))
    }

    /// Adds a rate. Each cell once: the sources refuse a pair given twice on a day before they add it.
    mutating func append(row: Int, column: Int, value: ExactDecimal) {
      rows.append(Int32(row))
      columns.append(Int32(column))
      if value.significand > 0, value.significand <= Int128(UInt64.max), value.scale < Int(CompactCells.absent) {
        significands.append(UInt64(value.significand))
        scales.append(UInt8(value.scale))
      } else {
        wide[scales.count] = value
        significands.append(0)
        scales.append(CompactCells.absent)
      }
    }

    /// Renumbers the rows: row `r` becomes `newRow[r]` (a source read newest first, sorted after).
    mutating func renumberRows(_ newRow: [Int]) {
      for index in rows.indices { rows[index] = Int32(newRow[Int(rows[index])]) }
    }

    /// The grid of `rows × width` cells holding the rates added: dense (9 bytes a cell) when at least a quarter
    /// of its cells hold a rate or it is small (a million cells), else only the rates (about 40 bytes each).
    ///
    /// - Parameter dense: forces one form (for the tests); `nil` chooses as above.
    func grid(rows rowCount: Int, width: Int, dense: Bool? = nil) -> RateGrid {
      let cellCount = rowCount * width
      if dense ?? (cellCount <= max(4 * count, 1 << 20)) {
        // Every published reference rate fits: positive, 64 bits.
        if wide.isEmpty {
          var compact = CompactCells()
          compact.significands = Array(repeating: 0, count: cellCount)
          compact.scales = Array(repeating: CompactCells.absent, count: cellCount)
          for index in scales.indices {
            let cell = Int(rows[index]) * width + Int(columns[index])
            compact.significands[cell] = significands[index]
            compact.scales[cell] = scales[index]
          }
          return RateGrid(compact: compact)
        }
        var cells = [ExactDecimal?](repeating: nil, count: cellCount)
        for index in scales.indices { cells[Int(rows[index]) * width + Int(columns[index])] = value(index) }
        return RateGrid(cells)
      }
      // Ordered by column, then row: a counting sort on the column, then each column's rows sorted.
      var columnStarts = [Int](repeating: 0, count: width + 1)
      for column in columns { columnStarts[Int(column) + 1] += 1 }
      for column in 0..<width { columnStarts[column + 1] += columnStarts[column] }
      var next = columnStarts
      var order = [Int](repeating: 0, count: count)
      for index in scales.indices {
        let column = Int(columns[index])
        order[next[column]] = index
        next[column] += 1
      }
      for column in 0..<width {
        let slice = columnStarts[column]..<columnStarts[column + 1]
        let inOrder = slice.dropFirst().allSatisfy { rows[order[$0 - 1]] < rows[order[$0]] }
        if !inOrder { order[slice].sort { rows[$0] < rows[$1] } }
      }
      return RateGrid(
        sparse: SparseCells(
          rowCount: rowCount, width: width, columnStarts: columnStarts, rows: order.map { rows[$0] },
          values: order.map { value($0) }))
    }
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

  init(sparse cells: SparseCells) {
    storage = .sparse(cells)
    count = cells.rowCount * cells.width
  }

  /// Whether only the rates present are held (for the tests).
  var isSparse: Bool {
    if case .sparse = storage { return true }
    return false
  }

  /// A cell: the rate, or `nil` when none was published.
  public subscript(index: Int) -> ExactDecimal? {
    switch storage {
    case .cells(let cells): return cells[index]
    case .lazy(let rows): return rows.value(at: index)
    case .compact(let cells): return cells[index]
    case .sparse(let cells): return cells[index]
    }
  }

  /// The cells of one row, read together (the lazy grid parses a row at a time).
  func row(_ row: Int, width: Int) -> [ExactDecimal?] {
    switch storage {
    case .cells(let cells): return Array(cells[row * width..<(row + 1) * width])
    case .lazy(let rows): return rows.row(row)
    case .compact(let cells): return (row * width..<(row + 1) * width).map { cells[$0] }
    case .sparse(let cells):
      return (0..<width).map { column in cells.position(row: row, column: column).map { cells.values[$0] } }
    }
  }

  /// The first and last of `rows` rows in which a column holds a rate, or `nil` when it holds none: a sparse
  /// grid reads its column's ends, a dense one scans from either end.
  func firstAndLastRow(column: Int, width: Int, rows: Int) -> (first: Int, last: Int)? {
    if case .sparse(let cells) = storage {
      let range = cells.columnStarts[column]..<cells.columnStarts[column + 1]
      guard let first = range.first, let last = range.last else { return nil }
      return (Int(cells.rows[first]), Int(cells.rows[last]))
    }
    guard let first = (0..<rows).first(where: { self[$0 * width + column] != nil }),
      let last = (first..<rows).last(where: { self[$0 * width + column] != nil })
    else { return nil }
    return (first, last)
  }

  /// Calls `body` with the row, column and rate of every cell that holds a rate (a sparse grid by column, a
  /// dense one by row).
  func forEachRate(rows: Int, width: Int, _ body: (_ row: Int, _ column: Int, _ rate: ExactDecimal) -> Void) {
    if case .sparse(let cells) = storage {
      for column in 0..<width {
        for position in cells.columnStarts[column]..<cells.columnStarts[column + 1] {
          body(Int(cells.rows[position]), column, cells.values[position])
        }
      }
      return
    }
    for row in 0..<rows {
      for (column, value) in self.row(row, width: width).enumerated() {
        if let value { body(row, column, value) }
      }
    }
  }

  /// Whether a column holds a rate in any of some rows.
  func hasRate(column: Int, width: Int, in rows: Range<Int>) -> Bool {
    if case .sparse(let cells) = storage {
      let position = cells.lowerBound(rows.lowerBound, column: column)
      return position < cells.columnStarts[column + 1] && Int(cells.rows[position]) < rows.upperBound
    }
    return rows.contains { self[$0 * width + column] != nil }
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
