/// The bytes a format writes around the annotation values of a converted record, for the fast paths that
/// write them straight from a ``TableConverter`` (``TableConverter/appendAnnotation(_:template:to:)``).
///
/// A template has eight pieces: before `fx_rate`, before each of the six other values (``AnnotationColumn``
/// order), and after the last one. On the fast path `fx_error` is always empty.
struct AnnotationTemplate: Sendable {
  /// The eight pieces back to back (see the type's description), then ``ByteCursor/wordCopyLimit`` zero bytes;
  /// piece `i` is `bytes[starts[i]..<starts[i + 1]]`.
  let bytes: [UInt8]
  let starts: [Int]
  /// ``starts`` packed a byte each (the template is at most ``maximumLength`` bytes), starts 0–7 then start 8:
  /// read without an array access.
  let packedStarts: UInt64
  let lastStart: Int
  /// Whether a byte may appear unescaped in a value of this format (the table's source identifiers are checked
  /// with it: one with any other byte takes the general path, which escapes or quotes it).
  let allowsUnescaped: @Sendable (UInt8) -> Bool
  /// Whether the format's general writer writes a space in a value as it is (``allowsUnescaped`` is stricter:
  /// a table identifier has none, and an answered quote's source text has some; ``AnsweredQuotes``).
  let spaceIsPlain: Bool

  /// The most bytes the eight pieces may hold together: every start must fit in a byte of ``packedStarts``.
  static let maximumLength = 255

  /// Whether eight pieces fit in one template (``maximumLength``); a format whose pieces come from its input
  /// (a record's own spacing) asks first, and takes the general path when they do not.
  static func fits(_ pieces: [[UInt8]]) -> Bool {
    pieces.count == 8 && pieces.reduce(0) { $0 + $1.count } <= maximumLength
  }

  /// - Parameters:
  ///   - pieces: the eight pieces, ``maximumLength`` bytes at most (``fits(_:)``).
  ///   - spaceIsPlain: see ``spaceIsPlain``.
  init(pieces: [[UInt8]], spaceIsPlain: Bool = true, allowsUnescaped: @escaping @Sendable (UInt8) -> Bool) {
    precondition(Self.fits(pieces), "an annotation template has eight pieces of at most 255 bytes in all")
    // Readable bytes after the last piece for ``ByteCursor/putShort(_:from:count:)``.
    bytes = pieces.flatMap { $0 } + repeatElement(0, count: ByteCursor.wordCopyLimit)
    starts = pieces.reduce(into: [0]) { starts, piece in starts.append(starts.last! + piece.count) }
    var packed: UInt64 = 0
    for index in 0..<8 { packed |= UInt64(starts[index]) << (8 * UInt64(index)) }
    packedStarts = packed
    lastStart = starts[8]
    self.allowsUnescaped = allowsUnescaped
    self.spaceIsPlain = spaceIsPlain
  }

  /// Piece `index`'s offset and length in ``bytes``.
  @inline(__always)
  func piece(_ index: Int) -> (start: Int, count: Int) {
    let start = Int(truncatingIfNeeded: packedStarts >> (8 * UInt64(index))) & 0xFF
    let end = index == 7 ? lastStart : Int(truncatingIfNeeded: packedStarts >> (8 * UInt64(index + 1))) & 0xFF
    return (start, end - start)
  }

  /// CSV fields (RFC 4180): each value after a delimiter, nothing after the empty `fx_error`.
  static func csv(delimiter: UInt8) -> AnnotationTemplate {
    // RFC 4180 writers quote a field for the delimiter, a quote, CR or LF (``CSVAnnotatingWriter``), not a space.
    AnnotationTemplate(pieces: Array(repeating: [delimiter], count: 7) + [[]], spaceIsPlain: delimiter != 32) { byte in
      byte > 32 && byte < 127 && byte != UInt8(ascii: ",") && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\"")
    }
  }

  /// JSON members after a record object's last member (RFC 8259), every value a string:
  /// `,"fx_rate":"…",…,"fx_error":""`; the object's closing brace is not part of it.
  static let jsonMembers: AnnotationTemplate = {
    let names = AnnotationColumn.allCases.map(\.rawValue)
    var pieces: [[UInt8]] = [Array(",\"\(names[0])\":\"".utf8)]
    for name in names.dropFirst() { pieces.append(Array("\",\"\(name)\":\"".utf8)) }
    pieces.append(Array("\"".utf8))
    return AnnotationTemplate(pieces: pieces) { byte in
      byte >= 32 && byte < 127 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
  }()
}
