/// The plain amounts of one record, as a ``FastRecordReader`` reads them for the fast loop: kept inline (no
/// allocation per record), at most ``capacity`` of them; a record with more is declined (the general path
/// writes it).
struct FastRecordAmounts {
  /// The most amounts a record on the fast path has.
  static let capacity = 4
  private var storage: (ExactDecimal, ExactDecimal, ExactDecimal, ExactDecimal) = (.zero, .zero, .zero, .zero)
  /// How many amounts the record read has.
  private(set) var count = 0

  /// Forgets the amounts (before the next record).
  @inline(__always)
  mutating func removeAll() { count = 0 }

  /// Adds an amount read exactly as written; `false` when the record has more than ``capacity``.
  @inline(__always)
  mutating func append(_ amount: ExactDecimal) -> Bool {
    switch count {
    case 0: storage.0 = amount
    case 1: storage.1 = amount
    case 2: storage.2 = amount
    case 3: storage.3 = amount
    default: return false
    }
    count += 1
    return true
  }

  /// Adds a plain amount's bytes (``FieldKeyDecoder/plainAmount(_:mark:)``); `false` when they are not plain
  /// (or the record has more amounts than ``capacity``).
  @inline(__always)
  mutating func appendPlain(_ bytes: ByteView, mark: UInt8?) -> Bool {
    guard let amount = FieldKeyDecoder.plainAmount(bytes, mark: mark) else { return false }
    return append(amount)
  }

  /// The amount at `index` (0 ..< ``count``).
  @inline(__always)
  subscript(index: Int) -> ExactDecimal {
    switch index {
    case 0: return storage.0
    case 1: return storage.1
    case 2: return storage.2
    default: return storage.3
    }
  }
}
