import Foundation

/// A currency code of ISO 4217: three upper-case ASCII letters that name a currency in ``ISO4217``
/// (current or historic).
///
/// The letters are packed into one integer so that codes hash and compare cheaply in the per-row path.
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The three ASCII letters, first letter in the high byte.
  let packed: UInt32

  /// Creates a code from text after trimming ASCII/Unicode whitespace and upper-casing ASCII letters,
  /// so `" usd "` and `"Usd"` both give `USD`.
  ///
  /// - Parameter text: the code as written in a field.
  /// - Returns: `nil` unless the trimmed text is three ASCII letters listed in ``ISO4217``.
  public init?(_ text: some StringProtocol) {
    guard let code = CurrencyCode(letters: text), ISO4217.currency(for: code) != nil else { return nil }
    self = code
  }

  /// Creates a code from three letters without checking the ISO 4217 table (used to build the table and
  /// to name a code in an error message).
  ///
  /// - Returns: `nil` unless the trimmed text is exactly three ASCII letters.
  init?(letters text: some StringProtocol) {
    let trimmed = String(text).trimmingWhitespace
    let bytes = Array(trimmed.utf8)
    guard bytes.count == 3 else { return nil }
    var packed: UInt32 = 0
    for byte in bytes {
      let upper: UInt8
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = byte
      case UInt8(ascii: "a")...UInt8(ascii: "z"): upper = byte - 32
      default: return nil
      }
      packed = packed << 8 | UInt32(upper)
    }
    self.packed = packed
  }

  /// The euro, the base currency of the ECB reference rates.
  public static let euro = CurrencyCode(packed: 0x45_55_52)

  init(packed: UInt32) { self.packed = packed }

  /// The three letters, e.g. `"USD"`.
  public var description: String {
    String(
      decoding: [
        UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), UInt8(truncatingIfNeeded: packed),
      ], as: UTF8.self)
  }

  public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.packed < rhs.packed }
}
