#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A look at an XML file's bytes before libxml2 parses it: a start tag with more attributes than
/// ``RecordLimits/maxAttributes`` is refused here, because libxml2 (2.9) checks an element's attributes for
/// duplicates in quadratic time before its reader hands the element over (100,000 attributes took 31 s), and so
/// is a tag longer than ``RecordLimits/maxRecordBytes``, which libxml2 would hold whole.
///
/// It counts the `=` signs outside quoted values in each tag, skipping comments, CDATA sections and processing
/// instructions; it does not check well-formedness (libxml2 does that next). A byte scan, so it reads the
/// ASCII-compatible encodings and UTF-16 alike (the zero bytes of UTF-16's ASCII characters are passed over).
/// Memory holds one block of the file.
enum XMLMarkupLimits {
  private static let blockSize = 1 << 16

  private enum State {
    case text
    /// After `<`, deciding what the markup is; `bytes` holds what came after the `<` so far.
    case markupStart(bytes: [UInt8])
    case tag(quote: UInt8?, attributes: Int, length: Int)
    /// Inside markup that ends at `terminator` (a comment's `-->`, a CDATA section's `]]>`, a processing
    /// instruction's `?>`); `matched` bytes of it were just seen.
    case skipping(terminator: [UInt8], matched: Int)
  }

  /// Refuses the file when a tag has more than ``RecordLimits/maxAttributes`` attributes or more than
  /// ``RecordLimits/maxRecordBytes`` bytes.
  ///
  /// - Throws: ``XMLInputError`` at the tag's line (its `<`); nothing when the file cannot be read (the
  ///   reader that follows reports that).
  static func check(path: String, limits: RecordLimits) throws(XMLInputError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let buffer = ReadBuffer(capacity: blockSize, padding: 0)
    var state = State.text
    var line = 1
    var tagLine = 1
    while true {
      let count = buffer.read(from: descriptor, into: 0, count: blockSize)
      guard count > 0 else { return }
      let bytes = buffer.view(count: count)
      var index = 0
      while index < count {
        let byte = bytes[index]
        if byte == 0x0A { line += 1 }
        switch state {
        case .text:
          if byte == UInt8(ascii: "<") {
            state = .markupStart(bytes: [])
            tagLine = line
          } else if let next = bytes.firstIndex(of: UInt8(ascii: "<"), from: index + 1) {
            // Count the line feeds passed over, then look at the `<`.
            for skipped in index + 1..<next where bytes[skipped] == 0x0A { line += 1 }
            index = next
            continue
          } else {
            for skipped in index + 1..<count where bytes[skipped] == 0x0A { line += 1 }
            index = count
            continue
          }
        case .markupStart(var seen):
          if byte != 0 { seen.append(byte) }
          if seen.starts(with: Array("!--".utf8)) {
            state = .skipping(terminator: Array("-->".utf8), matched: 0)
          } else if seen.starts(with: Array("![CDATA[".utf8)) {
            state = .skipping(terminator: Array("]]>".utf8), matched: 0)
          } else if seen.first == UInt8(ascii: "?") {
            state = .skipping(terminator: Array("?>".utf8), matched: 0)
          } else if Array("![CDATA[".utf8).starts(with: seen) || Array("!--".utf8).starts(with: seen) {
            state = .markupStart(bytes: seen)
          } else if !seen.isEmpty {
            state = .tag(quote: nil, attributes: 0, length: 1)
            continue  // the byte is part of the tag: look at it again
          }
        case .tag(let quote, var attributes, let length):
          if length > limits.maxRecordBytes {
            throw XMLInputError(
              line: tagLine, column: 1, message: limits.recordTooLargeMessage, hint: RecordLimits.hint)
          }
          if let quote {
            state = .tag(quote: byte == quote ? nil : quote, attributes: attributes, length: length + 1)
          } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            state = .tag(quote: byte, attributes: attributes, length: length + 1)
          } else if byte == UInt8(ascii: "=") {
            attributes += 1
            if attributes > limits.maxAttributes {
              throw XMLInputError(
                line: tagLine, column: 1,
                message: "an element has more than \(limits.maxAttributes) attributes; the file is refused so that "
                  + "time stays bounded")
            }
            state = .tag(quote: nil, attributes: attributes, length: length + 1)
          } else if byte == UInt8(ascii: ">") {
            state = .text
          } else {
            state = .tag(quote: nil, attributes: attributes, length: length + 1)
          }
        case .skipping(let terminator, var matched):
          if byte == 0 { break }
          if byte == terminator[matched] {
            matched += 1
          } else if byte == terminator[0] {
            // `]]]>` ends a CDATA section: a `]` after `]]` still leaves `]]` matched.
            matched = matched > 0 && terminator[matched - 1] == byte ? matched : 1
          } else {
            matched = 0
          }
          state = matched == terminator.count ? .text : .skipping(terminator: terminator, matched: matched)
        }
        index += 1
      }
    }
  }
}
