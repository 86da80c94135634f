import Foundation

extension LockFile {
  /// The lines of a version 2 lock, read a block at a time from its file (or from bytes in memory): every line
  /// but the last is handed out once, in order, and added to the digest with its line feed; the last line (the
  /// digest line) is kept in ``last``. A final line feed ends the last line; it is not a line of its own.
  struct Lines {
    private var buffer: [UInt8]
    private var start: Int
    private var end: Int
    /// The file read from; −1 when the bytes are all in ``buffer``.
    private let descriptor: Int32
    private var atEnd: Bool
    private var current: [UInt8] = []
    private var ahead: [UInt8] = []
    private var hasAhead = false
    /// The digest of the lines handed out.
    private(set) var hasher = SHA256Digest.Hasher()
    /// How many lines were handed out.
    private(set) var count = 0
    /// How many bytes they have with their line feeds (and the byte order mark skipped, if any).
    private(set) var byteCount = 0
    /// The last line, once every other one was handed out.
    private(set) var last: [UInt8]? = nil
    /// Whether reading the file failed.
    private(set) var failed = false

    static let blockSize = 1 << 20

    /// Whether the lines handed out are added to ``hasher`` (not when a ``ContentDigest`` hashes them).
    private let hashes: Bool

    /// The lines of a file, from a byte offset (after a byte order mark).
    init(descriptor: Int32, offset: Int, hashes: Bool = true) {
      self.descriptor = descriptor
      self.hashes = hashes
      buffer = [UInt8](repeating: 0, count: Self.blockSize)
      start = 0
      end = 0
      atEnd = false
      byteCount = offset
      if offset > 0 {
        var skipped = [UInt8](repeating: 0, count: offset)
        if FileBytes.read(from: descriptor, into: &skipped) != offset { atEnd = true }
      }
      hasAhead = readAhead()
    }

    /// The lines of bytes in memory.
    init(bytes: [UInt8]) {
      descriptor = -1
      hashes = true
      buffer = bytes
      start = 0
      end = bytes.count
      atEnd = true
      hasAhead = readAhead()
    }

    /// The next line that is not the last one; `nil` after the last but one (then ``last`` holds the last).
    mutating func next() -> ArraySlice<UInt8>? {
      guard hasAhead else { return nil }
      swap(&current, &ahead)
      hasAhead = readAhead()
      guard hasAhead else {
        last = current
        return nil
      }
      byteCount += current.count + 1
      if hashes {
        hasher.update(current[...])
        hasher.update(byte: UInt8(ascii: "\n"))
      }
      count += 1
      return current[...]
    }

    /// Reads the next line (without its line feed) into ``ahead``; `false` at the end of the bytes.
    private mutating func readAhead() -> Bool {
      ahead.removeAll(keepingCapacity: true)
      var any = false
      while true {
        if start < end {
          any = true
          if let feed = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
            ahead.append(contentsOf: buffer[start..<feed])
            start = feed + 1
            return true
          }
          ahead.append(contentsOf: buffer[start..<end])
          start = end
        }
        guard !atEnd else { return any }
        let read = FileBytes.read(from: descriptor, into: &buffer)
        if read < 0 { failed = true }
        if read <= 0 {
          atEnd = true
          start = 0
          end = 0
        } else {
          start = 0
          end = read
        }
      }
    }
  }

  /// Reads a version 2 lock's lines: its content, then its digest line checked against every byte before it. An
  /// error in the content is reported only once the digest holds (a damaged file says so, not what the damage
  /// broke).
  ///
  /// - Parameter digest: the content's digest computed on another thread, or `nil` (``Lines`` hashes).
  static func loadVersion2(_ lines: inout Lines, path: String, size: Int, digest: ContentDigest? = nil)
    throws(RatesFileError) -> (rates: Rates, defaultDay: CalendarDay)
  {
    var parsed: Result<(rates: Rates, defaultDay: CalendarDay), RatesFileError>
    do {
      parsed = .success(try parseVersion2(&lines, path: path, size: size))
    } catch {
      parsed = .failure(error)
    }
    while lines.next() != nil {}
    let computed = digest?.wait()
    func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }
    if lines.failed { throw fail(1, "cannot read the lock file: \(String(cString: strerror(errno)))") }
    let total = lines.count + (lines.last == nil ? 0 : 1)
    guard let last = lines.last, last.starts(with: Array("sha256 ".utf8)) else {
      throw fail(total, "the lock file has no sha256 digest line at its end (cut short?)")
    }
    var hasher = lines.hasher
    let content: String?
    if let digest {
      // The digest thread hashed the bytes before the line it found last; the lines agree on where that is.
      content = digest.end == lines.byteCount ? computed : nil
    } else {
      content = hasher.finalize()
    }
    guard String(decoding: last.dropFirst(7), as: UTF8.self) == content else {
      throw fail(
        total,
        "the lock file's sha256 digest does not match its content: it was edited or damaged; write it again with --lock (without --frozen)"
      )
    }
    return try parsed.get()
  }

  /// The content of a version 2 lock (its digest is checked by ``loadVersion2(_:path:)``).
  private static func parseVersion2(_ lines: inout Lines, path: String, size: Int) throws(RatesFileError) -> (
    rates: Rates, defaultDay: CalendarDay
  ) {
    func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }
    _ = lines.next()  // the version line
    var consumed = 1
    var text = lines.next().map { String(decoding: $0, as: UTF8.self) }
    /// The value of the next line, which must be named `name`.
    func value(_ name: String, optional: Bool = false) throws(RatesFileError) -> String? {
      guard let line = text, line == name || line.hasPrefix(name + " ") else {
        if optional { return nil }
        throw fail(consumed + 1, "expected a `\(name)` line")
      }
      consumed += 1
      text = lines.next().map { String(decoding: $0, as: UTF8.self) }
      return String(line.dropFirst(min(name.count + 1, line.count)))
    }
    func day(_ text: String?, line: Int) throws(RatesFileError) -> CalendarDay {
      guard let text, let found = CalendarDay(iso8601: text) else { throw fail(line, "malformed day \(text ?? "")") }
      return found
    }
    let identifier = try value("source") ?? ""
    let publisher = try value("publisher") ?? ""
    let description = try value("description") ?? ""
    let defaultDay = try day(try value("default-day"), line: consumed)
    var rule = RateRule.spot
    if let ruleText = try value("rule", optional: true) {
      let parts = ruleText.split(separator: " ").map(String.init)
      guard parts.count == 2, parts[0] != "spot", let period = RatePeriod(rawValue: parts[1]),
        let found = RateRule(kind: parts[0], period: period)
      else { throw fail(consumed, "malformed rule \(ruleText): expected `rule average|closing month|quarter|year`") }
      rule = found
      guard text == "quotes" else {
        throw fail(consumed + 1, "expected a `quotes` line: a lock of period rates keeps the rates it answered")
      }
    }
    if try value("quotes", optional: true) != nil {
      // The lines that follow, a few kilobytes after `quotes`, are read as bytes; `text` is the first of them.
      var reader = QuoteLineReader(rule: rule, path: path, size: size)
      if let first = text {
        consumed += 1
        try reader.read(Array(first.utf8)[...], line: consumed)
        while let line = lines.next() {
          consumed += 1
          try reader.read(line, line: consumed)
        }
      }
      let source = RateSourceInfo(
        identifier: identifier, publisher: publisher, description: "\(description), frozen in the lock file \(path)")
      var answers = reader.table
      answers.indexKeys()
      answers.dropTextIndex()
      return (.quotes(LockedQuotes(answers: answers, source: source, rule: rule)), defaultDay)
    }
    // A table lock: its lines as text (a year of 30 currencies is under 100 KB).
    var all = [String](repeating: "", count: consumed)
    if let text {
      all.append(text)
      while let line = lines.next() { all.append(String(decoding: line, as: UTF8.self)) }
    }
    return try tableLock(
      lines: all, index: consumed, path: path, identifier: identifier, publisher: publisher, description: description,
      defaultDay: defaultDay)
  }
}

/// The SHA-256 digest of a lock's content — every byte before its last line — computed on another thread while
/// the lines are read (``LockFile/Lines``): the digest check then costs no time of the reading.
final class ContentDigest: @unchecked Sendable {
  // `digest` is written by the hashing thread before it signals `done`, and read only after `wait()`.
  private let done = DispatchSemaphore(value: 0)
  private var digest: String? = nil
  /// The file offset where the content ends (the last line's first byte).
  let end: Int

  private init(end: Int) { self.end = end }

  /// Starts hashing a file's bytes from `start` to its last line, found from its tail; `nil` when the tail holds
  /// no line feed before a last line (a last line of over 4 KB: the lines are hashed as they are read).
  ///
  /// - Parameters:
  ///   - descriptor: the open file, read with `pread(2)` (the reader's file position is not moved); it must stay
  ///     open until ``wait()`` returns.
  ///   - size: the file's size.
  static func start(descriptor: Int32, from start: Int, size: Int) -> ContentDigest? {
    let tailLength = min(size - start, 4096)
    guard tailLength > 0 else { return nil }
    var tail = [UInt8](repeating: 0, count: tailLength)
    guard FileBytes.read(from: descriptor, into: &tail, fileOffset: size - tailLength) == tailLength else { return nil }
    let ending = tail.last == UInt8(ascii: "\n") ? tailLength - 1 : tailLength
    guard let feed = tail[..<ending].lastIndex(of: UInt8(ascii: "\n")) else { return nil }
    let digest = ContentDigest(end: size - tailLength + feed + 1)
    DispatchQueue.global().async {
      var hasher = SHA256Digest.Hasher()
      var block = [UInt8](repeating: 0, count: 1 << 20)
      var offset = start
      var complete = true
      while offset < digest.end {
        let read = FileBytes.read(from: descriptor, into: &block, fileOffset: offset)
        guard read > 0 else {
          complete = false
          break
        }
        let used = min(read, digest.end - offset)
        hasher.update(block[..<used])
        offset += used
      }
      digest.digest = complete ? hasher.finalize() : nil
      digest.done.signal()
    }
    return digest
  }

  /// Waits for the digest; `nil` when the file could not be read to its end.
  func wait() -> String? {
    done.wait()
    return digest
  }
}
