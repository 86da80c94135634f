/// One record of a CSV file as read: its raw bytes, kept for byte-for-byte re-emission, and where its
/// fields are.
public struct CSVRecord: Sendable {
  /// The record's bytes, without its line terminator (and without the file's byte order mark).
  public let raw: [UInt8]
  /// Each field's range in ``raw``, quotes included for a quoted field.
  public let fieldRanges: [Range<Int>]
  /// The line terminator that ended the record: `"\r\n"`, `"\n"`, `"\r"`, or empty for a last line without one.
  public let terminator: [UInt8]
  /// The 1-based line on which the record starts.
  public let line: Int

  /// Whether the record holds no data: an empty line, or a line of only delimiters, spaces and tabs, as a
  /// spreadsheet writes an empty row (`,,,,`, `;;;;`, `, , ,`). Blank lines are not records: they are copied to
  /// the output and not counted. A quoted field (`"",""`) is data.
  public var isBlank: Bool { fieldRanges.allSatisfy { Self.holdsNoData(raw[$0]) } }

  /// Whether a field's bytes (quotes included) are only spaces and tabs, or none: the one rule of
  /// ``isBlank`` and ``CSVRecordView/isBlank``.
  @inline(__always)
  static func holdsNoData(_ field: some Sequence<UInt8>) -> Bool {
    field.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
  }

  public var fieldCount: Int { fieldRanges.count }

  /// The field's value: quotes of a quoted field removed and doubled quotes collapsed (RFC 4180).
  ///
  /// A quoted field with text after its closing quote (`"1"000`) breaks RFC 4180; its value is its bytes as
  /// written, quotes included, so that it is refused as an amount or a code rather than read as `1000`.
  ///
  /// - Parameter index: 0-based field index; must be less than ``fieldCount``.
  public func field(_ index: Int) -> String {
    let range = fieldRanges[index]
    let quote = UInt8(ascii: "\"")
    guard range.count >= 1, raw[range.lowerBound] == quote else {
      return String(decoding: raw[range], as: UTF8.self)
    }
    var value: [UInt8] = []
    value.reserveCapacity(range.count)
    var index = range.lowerBound + 1
    while index < range.upperBound {
      let byte = raw[index]
      if byte == quote {
        if index + 1 < range.upperBound, raw[index + 1] == quote {
          value.append(quote)
          index += 2
          continue
        }
        guard index + 1 == range.upperBound else { return String(decoding: raw[range], as: UTF8.self) }
        break
      }
      value.append(byte)
      index += 1
    }
    return String(decoding: value, as: UTF8.self)
  }
}
