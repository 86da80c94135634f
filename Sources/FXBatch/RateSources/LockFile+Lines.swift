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
    /// The last line, once every other one was handed out.
    private(set) var last: [UInt8]? = nil
    /// Whether reading the file failed.
    private(set) var failed = false

    static let blockSize = 1 << 20

    /// The lines of a file, from a byte offset (after a byte order mark).
    init(descriptor: Int32, offset: Int) {
      self.descriptor = descriptor
      buffer = [UInt8](repeating: 0, count: Self.blockSize)
      start = 0
      end = 0
      atEnd = false
      if offset > 0 {
        var skipped = [UInt8](repeating: 0, count: offset)
        if FileBytes.read(from: descriptor, into: &skipped) != offset { atEnd = true }
      }
      hasAhead = readAhead()
    }

    /// The lines of bytes in memory.
    init(bytes: [UInt8]) {
      descriptor = -1
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
      hasher.update(current[...])
      hasher.update(byte: UInt8(ascii: "\n"))
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
  static func loadVersion2(_ lines: inout Lines, path: String, size: Int) throws(RatesFileError) -> (
    rates: Rates, defaultDay: CalendarDay
  ) {
    var parsed: Result<(rates: Rates, defaultDay: CalendarDay), RatesFileError>
    do {
      parsed = .success(try parseVersion2(&lines, path: path, size: size))
    } catch {
      parsed = .failure(error)
    }
    while lines.next() != nil {}
    func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }
    if lines.failed { throw fail(1, "cannot read the lock file: \(String(cString: strerror(errno)))") }
    let total = lines.count + (lines.last == nil ? 0 : 1)
    guard let last = lines.last, last.starts(with: Array("sha256 ".utf8)) else {
      throw fail(total, "the lock file has no sha256 digest line at its end (cut short?)")
    }
    var hasher = lines.hasher
    guard String(decoding: last.dropFirst(7), as: UTF8.self) == hasher.finalize() else {
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
      return (.quotes(LockedQuotes(answers: reader.table, source: source, rule: rule)), defaultDay)
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
