/// The bytes a format writes around the annotation values of a converted record, for the fast paths that
/// write them straight from a ``TableConverter`` (``TableConverter/appendAnnotation(_:template:to:)``).
///
/// A template has ``pieceCount`` pieces: before `fx_rate`, before each of the other values (``AnnotationLayout``
/// order: a converted amount per amount, then `fx_currency` … `fx_error`), and after the last one — eight with
/// one amount, seven and one per amount with several (at most ``InlineList/capacity``). On the fast path
/// `fx_error` is always empty.
struct AnnotationTemplate: Sendable {
  /// The pieces back to back (see the type's description), then ``ByteCursor/wordCopyLimit`` zero bytes;
  /// piece `i` is `bytes[starts[i]..<starts[i + 1]]`.
  let bytes: [UInt8]
  let starts: [Int]
  /// ``starts`` packed a byte each (the template is at most ``maximumLength`` bytes), starts 0–7 in the first
  /// word and 8–15 in the second: read without an array access.
  let packedStarts: (UInt64, UInt64)
  let lastStart: Int
  /// How many converted amounts the template holds (``AnnotationLayout/amountCount``).
  let amountCount: Int
  /// Whether a byte may appear unescaped in a value of this format (the table's source identifiers are checked
  /// with it: one with any other byte takes the general path, which escapes or quotes it).
  let allowsUnescaped: @Sendable (UInt8) -> Bool
  /// Whether the format's general writer writes a space in a value as it is (``allowsUnescaped`` is stricter:
  /// a table identifier has none, and an answered quote's source text has some; ``AnsweredQuotes``).
  let spaceIsPlain: Bool

  /// The most bytes the pieces may hold together: every start must fit in a byte of ``packedStarts``.
  static let maximumLength = 255

  /// How many pieces a template of `amountCount` converted amounts has.
  static func pieceCount(amounts amountCount: Int) -> Int { 7 + amountCount }

  /// How many pieces this template has.
  var pieceCount: Int { Self.pieceCount(amounts: amountCount) }

  /// Whether pieces fit in one template (one to ``InlineList/capacity`` amounts, ``maximumLength`` bytes); a
  /// format whose pieces come from its input (a record's own spacing, the amounts' NAMEs) asks first, and takes
  /// the general path when they do not.
  static func fits(_ pieces: [[UInt8]]) -> Bool {
    pieces.count >= 8 && pieces.count <= pieceCount(amounts: InlineList<ExactDecimal>.capacity)
      && pieces.reduce(0) { $0 + $1.count } <= maximumLength
  }

  /// - Parameters:
  ///   - pieces: the pieces, ``maximumLength`` bytes at most (``fits(_:)``).
  ///   - spaceIsPlain: see ``spaceIsPlain``.
  init(pieces: [[UInt8]], spaceIsPlain: Bool = true, allowsUnescaped: @escaping @Sendable (UInt8) -> Bool) {
    precondition(Self.fits(pieces), "an annotation template has 8 to 15 pieces of at most 255 bytes in all")
    // Readable bytes after the last piece for ``ByteCursor/putShort(_:from:count:)``.
    bytes = pieces.flatMap { $0 } + repeatElement(0, count: ByteCursor.wordCopyLimit)
    starts = pieces.reduce(into: [0]) { starts, piece in starts.append(starts.last! + piece.count) }
    var packed: (UInt64, UInt64) = (0, 0)
    for (index, start) in starts.enumerated() {
      if index < 8 {
        packed.0 |= UInt64(start) << (8 * UInt64(index))
      } else {
        packed.1 |= UInt64(start) << (8 * UInt64(index - 8))
      }
    }
    packedStarts = packed
    lastStart = starts[starts.count - 1]
    amountCount = pieces.count - 7
    self.allowsUnescaped = allowsUnescaped
    self.spaceIsPlain = spaceIsPlain
  }

  /// Where piece `index` starts (``pieceCount`` for the end of the last one).
  @inline(__always)
  private func startOf(_ index: Int) -> Int {
    index < 8
      ? Int(truncatingIfNeeded: packedStarts.0 >> (8 * UInt64(index))) & 0xFF
      : Int(truncatingIfNeeded: packedStarts.1 >> (8 * UInt64(index - 8))) & 0xFF
  }

  /// Piece `index`'s offset and length in ``bytes``.
  @inline(__always)
  func piece(_ index: Int) -> (start: Int, count: Int) {
    let start = startOf(index)
    return (start, startOf(index + 1) - start)
  }

  /// Whether the amounts' NAMEs may be written as they are in a format's field or attribute names: ASCII
  /// letters, digits, `_`, `-` and `.` (any other NAME takes the general path, which escapes it).
  static func namesArePlain(_ layout: AnnotationLayout) -> Bool {
    layout.amountNames.allSatisfy { name in
      !name.isEmpty
        && name.utf8.allSatisfy { byte in
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
  }

  /// CSV fields (RFC 4180): each value after a delimiter, nothing after the empty `fx_error`.
  ///
  /// - Parameter amountCount: how many converted amounts (``AnnotationLayout/amountCount``), at most
  ///   ``InlineList/capacity``.
  static func csv(delimiter: UInt8, amountCount: Int = 1) -> AnnotationTemplate {
    // RFC 4180 writers quote a field for the delimiter, a quote, CR or LF (``CSVAnnotatingWriter``), not a space.
    let pieces = Array(repeating: [delimiter], count: pieceCount(amounts: amountCount) - 1) + [[]]
    return AnnotationTemplate(pieces: pieces, spaceIsPlain: delimiter != 32) { byte in
      byte > 32 && byte < 127 && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\"")
        && byte != delimiter
    }
  }

  /// JSON members after a record object's last member (RFC 8259), every value a string:
  /// `,"fx_rate":"…",…,"fx_error":""`; the object's closing brace is not part of it.
  static let jsonMembers: AnnotationTemplate = jsonMembers(layout: .single)!

  /// ``jsonMembers`` of a run's annotation fields (`fx_converted_NAME` per amount with several); `nil` when the
  /// NAMEs are not plain (``namesArePlain(_:)``) or too long for a template.
  static func jsonMembers(layout: AnnotationLayout) -> AnnotationTemplate? {
    guard namesArePlain(layout) else { return nil }
    let names = layout.fieldNames
    var pieces: [[UInt8]] = [Array(",\"\(names[0])\":\"".utf8)]
    for name in names.dropFirst() { pieces.append(Array("\",\"\(name)\":\"".utf8)) }
    pieces.append(Array("\"".utf8))
    guard fits(pieces) else { return nil }
    return AnnotationTemplate(pieces: pieces) { byte in
      byte >= 32 && byte < 127 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
  }
}
