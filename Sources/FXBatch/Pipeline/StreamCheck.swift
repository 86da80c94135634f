/// What a stream's bytes (standard input, a pipe, a FIFO, a device) must be while they are copied to a temporary
/// file to be read twice (``BatchJob``'s spool): the copy stops at the first bytes no input of the stream's format
/// could hold, at its size limit (`--max-input-size`) and, for a line-based format, at a line longer than a record
/// may be, so that an endless stream (`/dev/zero`, `/dev/urandom`) is refused at once instead of filling `$TMPDIR`.
///
/// Each rule is the stream's format's (``FileFormat/streamRule(head:options:inputPath:)``, ``StreamRule``): it
/// refuses only what the format's reader refuses in a file, where it would refuse it. A package format's stream
/// is a zip package; a text format's is no package.
///
/// A compressed file is copied so too, decompressed (``Compression``): the same rules hold its decompressed bytes
/// to the limits, so that a decompression bomb stops at them.
struct StreamCheck {
  /// The input as the user gave it, which errors name.
  let inputPath: String
  /// Whether the bytes are a compressed file's, decompressed (else a stream's, perhaps decompressed too).
  let isDecompressedFile: Bool
  /// The stream's format.
  let type: any FileFormat.Type
  let rule: StreamRule
  /// The most bytes the stream may have (`--max-input-size`).
  let maxBytes: Int
  /// The record limits; in a line-based format a line longer than ``RecordLimits/maxRecordBytes`` is refused.
  let limits: RecordLimits
  /// How many bytes were checked.
  private(set) var offset = 0
  private var line = 1
  /// The offset of the current line's first byte.
  private var lineStart = 0
  /// The first bytes of a UTF-8 character (or of a UTF-16 code unit) the last block ended inside, checked with
  /// the next block.
  private var carried: [UInt8] = []
  /// In UTF-16 text, whether the last code unit was a high surrogate.
  private var afterHighSurrogate = false
  /// Whether the stream's format has a ``StreamRule/RecordLine`` and none of its lines so far was a record.
  private var looksForRecordObject = false
  /// While ``looksForRecordObject``: the bytes of the current line so far.
  private var currentLine: [UInt8] = []

  /// The check of a stream, from its first bytes.
  ///
  /// - Parameters:
  ///   - inputPath: the input as the user gave it.
  ///   - format: the stream's format (`--format`, else decided from its name and `head`).
  ///   - head: the stream's first 64 KiB, or all of a shorter one.
  ///   - options: the run's options (`--encoding`, `--max-input-size`, the record limits).
  /// - Throws: a ``FileError`` when the first bytes already cannot be the format's: a package read as text, text
  ///   read as a package, or what the format's rule refuses (a byte order mark `--encoding` contradicts, an
  ///   encoding fxbatch cannot copy).
  ///   - isDecompressedFile: whether the bytes are a compressed file's, decompressed.
  init(
    inputPath: String, format: RecordFormat, head: ArraySlice<UInt8>, options: BatchOptions,
    isDecompressedFile: Bool = false
  ) throws(FileError) {
    self.inputPath = inputPath
    self.isDecompressedFile = isDecompressedFile
    type = FormatRegistry.type(of: format)
    maxBytes = options.maxInputBytes
    limits = options.limits
    line = options.firstLine
    let isPackage = RecordFormat.isPackage(head)
    if type.kind == .package {
      rule = StreamRule(bytes: .package)
      if head.count >= 8, !isPackage {
        throw FileError(
          path: inputPath,
          message:
            "\(name) does not start as a zip package, as an \(type.displayName) "
            + "workbook does; it is refused before more of it is copied to a temporary file",
          hint: "give --format if the stream is not a workbook")
      }
      return
    }
    if isPackage { throw BatchJob.packageReadAsText(format: format, inputPath: inputPath) }
    rule = try type.streamRule(head: head, options: options, inputPath: inputPath)
    looksForRecordObject = rule.recordLine != nil
  }

  /// `standard input` for `-`, else `the stream`.
  static func name(of inputPath: String) -> String { inputPath == "-" ? "standard input" : "the stream" }

  /// What the checked bytes are called: `the decompressed file`, `standard input`, `the stream`.
  var name: String { isDecompressedFile ? "the decompressed file" : Self.name(of: inputPath) }

  /// Checks the stream's next bytes.
  ///
  /// - Parameters:
  ///   - block: the bytes read after those already checked.
  ///   - isLast: whether the stream ends after them (a character cut at the end is then the reader's to report).
  /// - Throws: a ``FileError`` at the first byte past a limit or that the format's text cannot hold.
  mutating func take(_ block: ArraySlice<UInt8>, isLast: Bool = false) throws(FileError) {
    if offset + block.count > maxBytes {
      let (copied, instead) =
        isDecompressedFile
        ? ("a compressed file is decompressed to a temporary file", "decompress the file first")
        : ("a stream is copied to a temporary file", "convert a file instead of a stream")
      throw FileError(
        path: inputPath,
        message:
          "\(name) is longer than \(RecordLimits.text(ofBytes: maxBytes)) (--max-input-size); "
          + "\(copied) to be read twice, and this one is refused before it fills the disk",
        hint: "raise the limit with --max-input-size BYTES (e.g. 16G), or \(instead)")
    }
    switch rule.bytes {
    case .utf8(let refusesControls): try checkText(block, utf8: true, refusesControls: refusesControls, isLast: isLast)
    case .controls: try checkText(block, utf8: false, refusesControls: true, isLast: isLast)
    case .utf16(let bigEndian, let refusesControls):
      try checkUTF16(block, bigEndian: bigEndian, refusesControls: refusesControls)
    case .package, .anyBytes: countLines(block)
    }
    try checkRecordObject()
    offset += block.count
    if type.isLineBased, offset - lineStart > limits.maxRecordBytes {
      throw FileError(
        path: inputPath, line: line, column: 1, message: limits.recordTooLargeMessage, hint: RecordLimits.hint)
    }
  }

  /// Counts the lines of a block and, until a record line (``StreamRule/RecordLine``), looks at each line.
  private mutating func countLines(_ block: ArraySlice<UInt8>) {
    var from = block.startIndex
    while let feed = block[from...].firstIndex(of: 0x0A) {
      if looksForRecordObject { currentLine += block[from..<feed] }
      endLine(at: offset + (feed - block.startIndex))
      from = feed + 1
    }
    if looksForRecordObject { currentLine += block[from...] }
  }

  /// Checks text bytes: UTF-8 characters (with `utf8`) and control bytes (with `refusesControls`).
  private mutating func checkText(_ block: ArraySlice<UInt8>, utf8: Bool, refusesControls: Bool, isLast: Bool)
    throws(FileError)
  {
    // A character cut by the last block is checked whole, from the offset where it starts.
    let bytes = carried.isEmpty ? block : ArraySlice(carried + block)
    let base = offset - carried.count
    carried = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte < 0x80 {
        if byte == 0x0A {
          endLine(at: base + (index - bytes.startIndex))
        } else if byte < 0x20, refusesControls, byte != 0x09, byte != 0x0D {
          throw refusal(
            at: base + (index - bytes.startIndex),
            "the byte \(Self.hex(byte)) is a control character, which \(textName) never holds")
        }
        index += 1
        continue
      }
      guard utf8 else {
        index += 1
        continue
      }
      let character = UTF8Validation.character(lead: byte) { index + $0 < bytes.endIndex ? bytes[index + $0] : nil }
      switch character {
      case .valid(let length): index += length
      case .truncated where !isLast:
        carried = Array(bytes[index...])
        return
      case .truncated: return
      case .invalid:
        let place = base + (index - bytes.startIndex)
        if let notUTF8 = rule.notUTF8 {
          let (line, column) = position(of: place)
          let (message, hint) = notUTF8(line, column, byte)
          throw FileError(path: inputPath, line: line, column: column, message: message, hint: hint)
        }
        throw refusal(
          at: place, "the byte \(Self.hex(byte)) starts no UTF-8 character, and \(textName) \(rule.utf8Wording)")
      }
    }
  }

  /// Checks UTF-16 text, a code unit at a time: a high surrogate (D800…DBFF) must be followed by a low one
  /// (DC00…DFFF), and a low one must follow a high one, as the reader's conversion (iconv) requires.
  private mutating func checkUTF16(_ block: ArraySlice<UInt8>, bigEndian: Bool, refusesControls: Bool)
    throws(FileError)
  {
    let bytes = carried.isEmpty ? block : ArraySlice(carried + block)
    let base = offset - carried.count
    carried = []
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex {
      let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
      let unit = bigEndian ? first << 8 | second : second << 8 | first
      let place = base + (index - bytes.startIndex)
      let isLow = (0xDC00...0xDFFF).contains(unit)
      if afterHighSurrogate != isLow {
        let shown = [bytes[index], bytes[index + 1]].map(Self.hex).joined(separator: " ")
        throw refusal(
          at: place,
          "the bytes \(shown) \(isLow ? "are a low surrogate after no high one" : "do not complete the surrogate pair before them"), "
            + "so they are no UTF-16 character")
      }
      afterHighSurrogate = (0xD800...0xDBFF).contains(unit)
      if unit == 0x0A {
        endLine(at: place + 1)
      } else if unit < 0x20, refusesControls, unit != 0x09, unit != 0x0D {
        let hex = String(unit, radix: 16, uppercase: true)
        let shown = "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        throw refusal(at: place, "the character \(shown) is a control character, which \(textName) never holds")
      }
      index += 2
    }
    carried = Array(bytes[index...])
  }

  /// Ends the current line at the line feed at `feedOffset`; until a record line (``StreamRule/RecordLine``),
  /// reads it.
  private mutating func endLine(at feedOffset: Int) {
    if looksForRecordObject, let recordLine = rule.recordLine {
      let start = line == 1 && currentLine.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      let end = max(start, currentLine.last == 0x0D ? currentLine.count - 1 : currentLine.count)
      if recordLine.isRecord(Array(currentLine[start..<end]), limits) { looksForRecordObject = false }
      currentLine.removeAll(keepingCapacity: looksForRecordObject)
    }
    line += 1
    lineStart = feedOffset + 1
  }

  /// Refuses a stream of a format with a ``StreamRule/RecordLine`` none of whose lines that started within the
  /// first ``RecordLimits/maxRecordBytes`` is a record.
  private func checkRecordObject() throws(FileError) {
    guard looksForRecordObject, let recordLine = rule.recordLine, lineStart > limits.maxRecordBytes else { return }
    throw FileError(
      path: inputPath, line: line, column: 1,
      message:
        "no line in the first \(RecordLimits.text(ofBytes: limits.maxRecordBytes)) of \(name) "
        + "is \(recordLine.what), so it is not \(type.displayName); it is refused before more of it is copied to a "
        + "temporary file",
      hint: "give --format if the stream is not \(type.displayName) (a record longer than the limit: --max-record-size)")
  }

  /// `JSON text`: what the format's text is called.
  private var textName: String { "\(type.displayName) text" }

  /// The 1-based line and column (in bytes, in code units for UTF-16) of an offset in the current line.
  private func position(of place: Int) -> (line: Int, column: Int) {
    guard case .utf16 = rule.bytes else { return (line, place - lineStart + 1) }
    return (line, (place - lineStart) / 2 + 1)
  }

  /// The refusal of a byte the format's text cannot hold.
  private func refusal(at place: Int, _ what: String) -> FileError {
    let (line, column) = position(of: place)
    return FileError(
      path: inputPath, line: line, column: column,
      message: "\(what); \(name) is refused before more of it is copied to a temporary file",
      hint: rule.hint ?? "give --format if the stream is not \(type.displayName)")
  }

  /// `0x0A`: a byte as messages show it.
  private static func hex(_ byte: UInt8) -> String {
    "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
  }
}
