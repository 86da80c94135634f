/// The plain amounts of one record, as a ``FastRecordReader`` reads them for the fast loop: kept inline (no
/// allocation per record), at most ``capacity`` of them; a record with more is declined (the general path
/// writes it).
struct FastRecordAmounts {
  /// The most amounts a record on the fast path has.
  static var capacity: Int { InlineList<ExactDecimal>.capacity }
  private(set) var values = InlineList<ExactDecimal>(filler: .zero)
  /// How many amounts the record read has.
  var count: Int { values.count }

  /// Forgets the amounts (before the next record).
  @inline(__always)
  mutating func removeAll() { values.removeAll() }

  /// Adds an amount read exactly as written; `false` when the record has more than ``capacity``.
  @inline(__always)
  mutating func append(_ amount: ExactDecimal) -> Bool { values.append(amount) }

  /// Adds a plain amount's bytes (``FieldKeyDecoder/plainAmount(_:mark:)``); `false` when they are not plain
  /// (or the record has more amounts than ``capacity``).
  @inline(__always)
  mutating func appendPlain(_ bytes: ByteView, mark: UInt8?) -> Bool {
    guard let amount = FieldKeyDecoder.plainAmount(bytes, mark: mark) else { return false }
    return append(amount)
  }

  /// The amount at `index` (0 ..< ``count``).
  @inline(__always)
  subscript(index: Int) -> ExactDecimal { values[index] }
}
