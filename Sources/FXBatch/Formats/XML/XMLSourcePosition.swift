/// A line and column in an XML document as its reader sees it (1-based; the column counts characters), kept
/// up to date while walking the document's code units.
public struct XMLSourcePosition: Sendable, Equatable {
  public private(set) var line: Int
  public private(set) var column: Int
  private var afterCarriageReturn = false

  public init(line: Int = 1, column: Int = 1) {
    self.line = line
    self.column = column
  }

  /// Positions are equal when their lines and columns are; how the walk got there does not count.
  public static func == (left: XMLSourcePosition, right: XMLSourcePosition) -> Bool {
    left.line == right.line && left.column == right.column
  }

  /// Moves past one code unit: CR LF, LF and CR end a line (XML 1.0 §2.11); a UTF-8 continuation byte or a
  /// UTF-16 low surrogate belongs to the character before it.
  ///
  /// - Parameters:
  ///   - unit: a byte, or a UTF-16 code unit.
  ///   - isUTF8: whether bytes are UTF-8 (else each byte is a character, or the units are UTF-16).
  mutating func advance(over unit: UInt16, isUTF8: Bool) {
    defer { afterCarriageReturn = unit == 0x0D }
    if unit == 0x0A || unit == 0x0D {
      if unit == 0x0A && afterCarriageReturn { return }
      line += 1
      column = 1
    } else if isUTF8 ? (unit & 0xC0 != 0x80) : !(0xDC00...0xDFFF).contains(unit) {
      column += 1
    }
  }
}

extension XMLSourcePosition {
  /// Where a file's first byte sequence that is not UTF-8 starts (after a UTF-8 byte order mark), if it has one:
  /// libxml2 reports that error one character early.
  ///
  /// - Throws: ``XMLInputError`` when the file cannot be read.
  static func firstInvalidUTF8(path: String) throws(XMLInputError) -> XMLSourcePosition? {
    let window = try XMLByteWindow(path: path, form: .asciiCompatible)
    var offset = 0
    if try window.unit(at: 0) == 0xEF, try window.unit(at: 1) == 0xBB, try window.unit(at: 2) == 0xBF { offset = 3 }
    var position = XMLSourcePosition()
    while let lead = try window.unit(at: offset) {
      // RFC 3629 §4: the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
      var second: ClosedRange<UInt16> = 0x80...0xBF
      let length: Int
      switch lead {
      case 0..<0x80: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xE1...0xEF: length = 3
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      case 0xF1...0xF3: length = 4
      default: return position
      }
      for index in 1..<max(length, 1) {
        guard let next = try window.unit(at: offset + index), (index == 1 ? second : 0x80...0xBF).contains(next) else {
          return position
        }
      }
      position.advance(over: lead, isUTF8: true)
      offset += length
      window.release(before: offset)
    }
    return nil
  }
}
