#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A streaming RFC 4180 CSV reader over the bytes of a file.
///
/// Handles quoted fields, doubled quotes, CR or LF inside quotes, CRLF / LF / CR line ends, a UTF-8 byte
/// order mark, a last line without a line end, and blank lines (returned as blank records so that writers can
/// keep them). Memory holds one buffer and the current record: it does not grow with the file.
public final class CSVReader {
  /// The field delimiter (`,`, `;` or tab).
  public var delimiter: UInt8 { fieldDelimiter }
  /// Private, so that the per-record scan reads it without a dynamic exclusivity check.
  private var fieldDelimiter = UInt8(ascii: ",")
  /// Whether the file starts with a UTF-8 byte order mark (EF BB BF), which is not part of the first record.
  public private(set) var hasByteOrderMark = false
  /// Excel's first line `sep=X` (`sep=;`, `sep=,`, `sep=\t`, `sep=|`), which names the delimiter and is no
  /// record: its bytes and line end, to be copied as they were; `nil` when the file has none.
  public private(set) var separatorLine: CSVRecord? = nil

  /// How big a record may be.
  let limits: RecordLimits
  private let descriptor: Int32
  /// The buffer, of which `start..<end` are unread (not an array: the per-record loop must not retain and check
  /// an array for every record).
  private let buffer = ReadBuffer(capacity: CSVReader.chunkSize, padding: CSVReader.readPadding)
  /// The field ranges of the last record scanned (relative to its start), reused from record to record.
  private var fieldRanges = ScratchList<Range<Int>>.allocate(capacity: 64)
  private var start = 0
  private var end = 0
  private var atEndOfFile = false
  private var line = 1
  private static let chunkSize = 1 << 16
  /// The file offset of `buffer[0]`.
  private var bufferOffset = 0
  /// The file offset at which reading stops (the end of a part of the file), or `nil` for the end of the file.
  private var limit: Int?

  /// Opens a file for reading.
  ///
  /// - Parameters:
  ///   - path: the file's path.
  ///   - delimiter: the field delimiter, or `nil` to take it from Excel's `sep=X` first line
  ///     (``separatorLine``), else to detect it from the first line (see ``detectDelimiter(in:)``).
  ///   - limits: how big a record may be (``next()`` throws ``CSVError/recordLimit(line:column:message:hint:)``
  ///     past them).
  ///   - firstLine: the number of the file's first line (`--first-line`: a chunk of a bigger file).
  /// - Throws: ``CSVError/unreadable(reason:)`` when the file cannot be opened or read;
  ///   ``CSVError/separatorLineConflict(declared:given:)`` when `delimiter` is not the one a `sep=` line names.
  public init(path: String, delimiter: UInt8? = nil, limits: RecordLimits = .standard, firstLine: Int = 1) throws {
    self.limits = limits
    line = firstLine
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CSVError.unreadable(reason: String(cString: strerror(errno))) }
    try fill()
    let head = buffer.view(count: end)
    if end - start >= 3, head[start] == 0xEF, head[start + 1] == 0xBB, head[start + 2] == 0xBF {
      hasByteOrderMark = true
      start += 3
    }
    if let declared = try readSeparatorLine() {
      if let delimiter, delimiter != declared { throw CSVError.separatorLineConflict(declared: declared, given: delimiter) }
      fieldDelimiter = declared
    } else if let delimiter {
      fieldDelimiter = delimiter
    } else {
      try fillFirstLine()
      fieldDelimiter = Self.detectDelimiter(
        in: bytes(from: start, to: end).buffer.drop { $0 == 10 || $0 == 13 }.prefix(Self.delimiterSampleSize))
    }
  }

  /// Opens a part of a file that starts at a record boundary (found by an earlier reading): its records are
  /// read as if the file held only them, with line numbers continuing from `line`.
  ///
  /// - Parameters:
  ///   - range: file offsets, from the first byte of a record to the first byte after the part.
  ///   - line: the 1-based line of the part's first record.
  init(path: String, delimiter: UInt8, range: Range<Int>, line: Int, limits: RecordLimits = .standard) throws {
    self.limits = limits
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CSVError.unreadable(reason: String(cString: strerror(errno))) }
    guard lseek(descriptor, off_t(range.lowerBound), SEEK_SET) == off_t(range.lowerBound) else {
      close(descriptor)
      throw CSVError.unreadable(reason: String(cString: strerror(errno)))
    }
    bufferOffset = range.lowerBound
    limit = range.upperBound
    self.line = line
    fieldDelimiter = delimiter
  }

  deinit {
    close(descriptor)
    fieldRanges.deallocate()
  }

  /// The buffer's bytes `from..<to` (within the bytes read), the rest of the buffer readable after them.
  private func bytes(from: Int, to: Int) -> ByteView {
    buffer.view(count: end).slice(from..<to)
  }

  /// Whether a record read so far has a quoted field (which may hold line ends: a file without one has a record
  /// boundary after every line end).
  private(set) var sawQuotedField = false

  /// The file offset of the next record (after the last one read).
  var nextRecordOffset: Int { bufferOffset + start }
  /// The 1-based line of the next record.
  var nextLine: Int { line }

  /// Stops reading at a file offset at or after the next record (the start of a part another reader takes).
  func stop(at offset: Int) {
    limit = offset
    if bufferOffset + end >= offset {
      end = max(start, offset - bufferOffset)
      atEndOfFile = true
    }
  }

  /// Picks `,`, `;` or tab: whichever occurs most often outside quotes in the first line; `,` when none does.
  /// A tie goes to the earlier of `,` `;` tab, so the same file always gets the same delimiter.
  public static func detectDelimiter(in bytes: some Collection<UInt8>) -> UInt8 {
    let candidates = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
    var counts = [0, 0, 0]
    var inQuotes = false
    for byte in bytes {
      if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
      if inQuotes { continue }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
      if let index = candidates.firstIndex(of: byte) { counts[index] += 1 }
    }
    // Not a Dictionary: its iteration order changes from run to run, which made ties pick at random.
    var best = 0
    for index in counts.indices where counts[index] > counts[best] { best = index }
    return candidates[best]
  }

  /// Reads Excel's first line `sep=X` (``separatorLine``), when the file starts with one: `sep=` in any case, one
  /// delimiter (a tab or an ASCII punctuation mark other than a quote), then the line's end.
  ///
  /// - Returns: the delimiter it names; `nil` (nothing read) when the first line is no such line.
  private func readSeparatorLine() throws -> UInt8? {
    let keyword = Array("sep=".utf8)
    // A pipe may hand over its first bytes a few at a time: wait for the whole line where it could be one.
    while end - start < keyword.count + 3, !atEndOfFile {
      let seen = bytes(from: start, to: end).buffer.prefix(keyword.count).map(Self.lowercased)
      guard keyword.starts(with: seen) else { return nil }
      try fill()
    }
    let line = Array(bytes(from: start, to: end).buffer.prefix(keyword.count + 3))
    guard line.count > keyword.count, line.prefix(keyword.count).map(Self.lowercased) == keyword else { return nil }
    let declared = line[keyword.count]
    let isPunctuation =
      (0x21...0x7E).contains(declared) && declared != UInt8(ascii: "\"")
      && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(declared)
      && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(declared & ~0x20)
    guard declared == UInt8(ascii: "\t") || isPunctuation else { return nil }
    let rest = line.dropFirst(keyword.count + 1)
    let terminator: [UInt8]
    if rest.starts(with: [13, 10]) {
      terminator = [13, 10]
    } else if let first = rest.first, first == 10 || first == 13 {
      terminator = [first]
    } else if rest.isEmpty, atEndOfFile {
      terminator = []
    } else {
      return nil
    }
    let raw = Array(line.prefix(keyword.count + 1))
    separatorLine = CSVRecord(raw: raw, fieldRanges: [0..<raw.count], terminator: terminator, line: self.line)
    start += raw.count + terminator.count
    self.line += 1
    return declared
  }

  /// An ASCII letter in lower case; any other byte as it is.
  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  /// How much of the first line delimiter detection reads: the delimiters of a real header are counted long
  /// before this, and a file without line ends is not read whole before its first record is refused.
  private static let delimiterSampleSize = 64 << 10

  /// Reads until the buffer holds the whole first non-blank line (or the file ends, or ``delimiterSampleSize``
  /// bytes are read), for delimiter detection.
  private func fillFirstLine() throws {
    while !atEndOfFile, end - start <= Self.delimiterSampleSize,
      !bytes(from: start, to: end).buffer.drop(while: { $0 == 10 || $0 == 13 }).contains(where: { $0 == 10 || $0 == 13 })
    {
      try fill()
    }
  }

  /// Moves unread bytes to the front of the buffer and reads more; grows the buffer when a record fills it.
  private func fill() throws {
    if start > 0 {
      buffer.moveToFront(start..<end)
      bufferOffset += start
      end -= start
      start = 0
    }
    // The buffer's padding is never filled: a record view may read a word past its end.
    if end == buffer.capacity { buffer.grow(keeping: end) }
    var wanted = buffer.capacity - end
    if let limit { wanted = min(wanted, max(0, limit - (bufferOffset + end))) }
    let count = wanted > 0 ? buffer.read(from: descriptor, into: end, count: wanted) : 0
    guard count >= 0 else { throw CSVError.unreadable(reason: String(cString: strerror(errno))) }
    if count == 0 { atEndOfFile = true }
    end += count
  }

  /// The next record, or `nil` at the end of the file.
  ///
  /// - Throws: ``CSVError/unterminatedQuote(line:column:)`` when a quoted field runs to the end of the file;
  ///   ``CSVError/unreadable(reason:)`` on a read error.
  public func next() throws -> CSVRecord? {
    guard let bounds = try advance() else { return nil }
    let raw = Array(bytes(from: bounds.start, to: bounds.end).buffer)
    let terminator = Array(bytes(from: bounds.end, to: bounds.end + bounds.terminatorLength).buffer)
    let fields = raw.isEmpty ? [] : Array(fieldRanges)
    return CSVRecord(raw: raw, fieldRanges: fields, terminator: terminator, line: bounds.line)
  }

  /// Reads the next record without copying it: `body` sees it in place, valid only during the call (the
  /// per-record path of large files, which must not allocate per record).
  ///
  /// - Returns: `body`'s result, or `nil` at the end of the file.
  /// - Throws: as ``next()``, and whatever `body` throws.
  func withNextRecord<Result>(_ body: (CSVRecordView) throws -> Result) throws -> Result? {
    guard let bounds = try advance() else { return nil }
    return try body(
      CSVRecordView(
        bytes: bytes(from: bounds.start, to: bounds.end + bounds.terminatorLength), length: bounds.end - bounds.start,
        fieldRanges: fieldRanges, fieldCount: bounds.end == bounds.start ? 0 : fieldRanges.count,
        line: bounds.line))
  }

  /// Bytes after the data in the buffer that are allocated but never filled, so that ``CSVRecordView`` can
  /// promise them (``CSVRecordView/readablePadding``).
  static let readPadding = CSVRecordView.readablePadding

  /// Scans the next record; its field ranges are left in ``fieldRanges``.
  ///
  /// - Returns: the record's bytes in ``buffer`` (`start..<end`, then its terminator) and its first line.
  private func advance() throws -> (start: Int, end: Int, terminatorLength: Int, line: Int)? {
    while true {
      if start == end {
        if atEndOfFile { return nil }
        try fill()
        continue
      }
      if let bounds = try scanRecord() {
        try checkUTF8(from: bounds.start, to: bounds.end, line: bounds.line)
        return bounds
      }
      // The record continues past the buffer: read more and scan it again from its start, unless it is already
      // too long (a file without line ends would otherwise be held whole).
      if end - start > limits.maxRecordBytes {
        throw CSVError.recordLimit(
          line: line, column: 1, message: limits.recordTooLargeMessage, hint: RecordLimits.hint)
      }
      try fill()
    }
  }

  /// Scans one record starting at `start`; `nil` when the buffer ends before the record does.
  private func scanRecord() throws -> (start: Int, end: Int, terminatorLength: Int, line: Int)? {
    let quote = UInt8(ascii: "\"")
    // Locals, not properties, in the loop: a class property costs an exclusivity check per access.
    // Not captured by a nested function either: a captured variable is boxed, and its accesses around the call
    // that grows the list would be checked at run time on every append.
    var ranges = self.fieldRanges
    ranges.removeAll()
    defer { self.fieldRanges = ranges }
    let start = self.start
    let end = self.end
    let atEndOfFile = self.atEndOfFile
    var index = start
    var fieldStart = start
    var inQuotes = false
    var quoteOpenedAt = start
    var newlinesInside = 0
    var opensQuotedField = false
    defer { if opensQuotedField { sawQuotedField = true } }
    let delimiter = fieldDelimiter
    let maxFields = limits.maxFields
    // Eight bytes at a time outside quotes: the delimiters of a word are taken from a bit mask, and a word with no
    // quote, CR or LF is done without looking at its bytes one by one.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let highs: UInt64 = 0x8080_8080_8080_8080
    let belowQuote = UInt64(0x23) &* ones
    let delimiters = UInt64(delimiter) &* ones
    let quotes = UInt64(quote) &* ones
    let feeds = UInt64(10) &* ones
    let returns = UInt64(13) &* ones
    /// The high bit of each byte of `value` that is zero, exactly (no borrow between bytes).
    @inline(__always) func zeroBytes(_ value: UInt64) -> UInt64 { ~(((value & lows) &+ lows) | value | lows) }
    // Word loads may reach into the buffer's padding, after `end`.
    let buffer = self.buffer.view(count: end)
    do {
      while true {
        if !inQuotes {
          while index + 8 <= end {
            let word = buffer.word(at: index)
            var fieldEnds = zeroBytes(word ^ delimiters)
            // A quote (0x22), LF or CR is below 0x23: a word with no such byte (most of them) needs no exact test.
            let hasLow = (word &- belowQuote) & ~word & highs != 0
            let others = hasLow ? zeroBytes(word ^ quotes) | zeroBytes(word ^ feeds) | zeroBytes(word ^ returns) : 0
            // The delimiters before the first quote or line end of the word (all of them when there is none).
            let stop = others == 0 ? 8 : others.trailingZeroBitCount >> 3
            if stop < 8 { fieldEnds &= (1 << (8 * UInt64(stop))) &- 1 }
            while fieldEnds != 0 {
              let position = index + fieldEnds.trailingZeroBitCount >> 3
              ranges.appendGrowing(fieldStart - start..<position - start)
              fieldStart = position + 1
              fieldEnds &= fieldEnds &- 1
            }
            if ranges.count > maxFields { throw tooManyFields() }
            index += stop
            if stop < 8 { break }
          }
        }
        if index == end {
          guard atEndOfFile else { return nil }
          if inQuotes {
            let (line, column) = position(of: quoteOpenedAt)
            throw CSVError.unterminatedQuote(line: line, column: column)
          }
          ranges.appendGrowing(fieldStart - start..<index - start)
          try checkSize(recordEnd: index, ranges: ranges)
          return finish(recordEnd: index, terminatorLength: 0, newlinesInside: newlinesInside)
        }
        let byte = buffer[index]
        if inQuotes {
          if byte == quote {
            if index + 1 == end, !atEndOfFile { return nil }
            if index + 1 < end, buffer[index + 1] == quote {
              index += 2
              continue
            }
            inQuotes = false
          } else if byte == 10 || (byte == 13 && !(index + 1 < end && buffer[index + 1] == 10)) {
            newlinesInside += 1
          }
          index += 1
          continue
        }
        if byte > quote {  // neither a delimiter (`,` `;` tab), a quote nor a line end: the common case
          if byte == delimiter {
            ranges.appendGrowing(fieldStart - start..<index - start)
            fieldStart = index + 1
            if ranges.count > maxFields { throw tooManyFields() }
          }
          index += 1
          continue
        }
        switch byte {
        case quote where index == fieldStart:
          inQuotes = true
          quoteOpenedAt = index
          opensQuotedField = true
        case delimiter:
          ranges.appendGrowing(fieldStart - start..<index - start)
          fieldStart = index + 1
          if ranges.count > maxFields { throw tooManyFields() }
        case 10:
          ranges.appendGrowing(fieldStart - start..<index - start)
          try checkSize(recordEnd: index, ranges: ranges)
          return finish(recordEnd: index, terminatorLength: 1, newlinesInside: newlinesInside)
        case 13:
          if index + 1 == end, !atEndOfFile { return nil }
          ranges.appendGrowing(fieldStart - start..<index - start)
          let crlf = index + 1 < end && buffer[index + 1] == 10
          try checkSize(recordEnd: index, ranges: ranges)
          return finish(recordEnd: index, terminatorLength: crlf ? 2 : 1, newlinesInside: newlinesInside)
        default:
          break
        }
        index += 1
      }
    }
  }

  /// The error of a record with more than ``RecordLimits/maxFields`` fields, at its first line.
  private func tooManyFields() -> CSVError {
    CSVError.recordLimit(line: line, column: 1, message: limits.tooManyFieldsMessage, hint: nil)
  }

  /// Refuses a whole record longer than ``RecordLimits/maxRecordBytes`` or with a field longer than
  /// ``RecordLimits/maxFieldBytes`` (the fields are looked at only when the record is longer than that).
  ///
  /// - Parameter ranges: the record's field ranges, relative to `start`.
  private func checkSize(recordEnd: Int, ranges: ScratchList<Range<Int>>) throws(CSVError) {
    let length = recordEnd - start
    if length > limits.maxRecordBytes {
      throw CSVError.recordLimit(line: line, column: 1, message: limits.recordTooLargeMessage, hint: RecordLimits.hint)
    }
    guard length > limits.maxFieldBytes else { return }
    for range in ranges where range.count > limits.maxFieldBytes {
      let (line, column) = position(of: start + range.lowerBound)
      throw CSVError.recordLimit(line: line, column: column, message: limits.fieldTooLargeMessage, hint: RecordLimits.hint)
    }
  }

  private func finish(recordEnd: Int, terminatorLength: Int, newlinesInside: Int) -> (
    start: Int, end: Int, terminatorLength: Int, line: Int
  ) {
    let bounds = (start, recordEnd, terminatorLength, line)
    line += newlinesInside + (terminatorLength > 0 ? 1 : 0)
    start = recordEnd + terminatorLength
    return bounds
  }

  /// Refuses a record that is not UTF-8 (fxbatch reads UTF-8; another encoding is converted before it is read):
  /// a word at a time while the bytes are ASCII, then the standard library's UTF-8 parser.
  ///
  /// - Throws: ``CSVError/notUTF8(line:column:byte:)`` at the first byte that starts no UTF-8 character.
  @inline(__always)
  private func checkUTF8(from recordStart: Int, to recordEnd: Int, line: Int) throws {
    let buffer = self.buffer.view(count: end)
    var index = recordStart
    while index + 8 <= recordEnd, buffer.word(at: index) & 0x8080_8080_8080_8080 == 0 { index += 8 }
    while index < recordEnd, buffer[index] < 0x80 { index += 1 }
    guard index < recordEnd else { return }
    var iterator = buffer.slice(index..<recordEnd).buffer.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): index += scalar.count
      case .emptyInput: return
      case .error:
        let (line, column) = position(of: index, recordStart: recordStart, line: line)
        throw CSVError.notUTF8(line: line, column: column, byte: buffer[index])
      }
    }
  }

  /// The 1-based line and column (in bytes) of a buffer index inside the current record (or the record that
  /// starts at `recordStart` on `line`).
  private func position(of target: Int, recordStart: Int? = nil, line: Int? = nil) -> (line: Int, column: Int) {
    let buffer = self.buffer.view(count: end)
    var line = line ?? self.line
    let start = recordStart ?? self.start
    var lineStart = start
    var index = start
    while index < target {
      let byte = buffer[index]
      if byte == 10 || (byte == 13 && !(index + 1 < end && buffer[index + 1] == 10)) {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    return (line, target - lineStart + 1)
  }
}
