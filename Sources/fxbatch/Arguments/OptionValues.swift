import FXBatch
import Foundation

/// Reading typed values out of option text, each failure a ``UsageError`` naming the option.
enum OptionValues {
  static func currency(_ text: String, option: String) throws(UsageError) -> CurrencyCode {
    guard let code = CurrencyCode(text) else { throw UsageError("\(option) \(text): not an ISO 4217 currency code") }
    return code
  }

  static func day(_ text: String, option: String) throws(UsageError) -> CalendarDay {
    guard let day = CalendarDay(iso8601: text) else {
      let layout = text.utf8.count == 10 && text.split(separator: "-").count == 3
      throw UsageError("\(option) \(text): \(layout ? "not a calendar date" : "expected a YYYY-MM-DD date")")
    }
    return day
  }

  static func nonNegativeInteger(_ text: String, option: String) throws(UsageError) -> Int {
    guard let value = Int(text), value >= 0, value <= 100_000 else {
      throw UsageError("\(option) \(text): expected a whole number of days (0 or more)")
    }
    return value
  }

  /// A count of bytes: digits, optionally followed by `K`, `M` or `G` (binary: `64M` is 64 × 2^20), from 1 KiB to
  /// 64 GiB.
  static func byteCount(_ text: String, option: String) throws(UsageError) -> Int {
    let scales: [Character: Int] = ["K": 10, "M": 20, "G": 30]
    var digits = Substring(text)
    var shift = 0
    if let last = digits.last?.uppercased().first, let scale = scales[last] {
      shift = scale
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0, value <= 1 << 36,
      value << shift >= 1 << 10, value << shift <= 1 << 36
    else {
      throw UsageError("\(option) \(text): expected a number of bytes from 1K to 64G, e.g. 16777216, 64M or 1G")
    }
    return value << shift
  }

  static func rounding(_ text: String) throws(UsageError) -> RoundingMode {
    guard let mode = RoundingMode(rawValue: text) else {
      throw UsageError("--rounding \(text): expected one of \(RoundingMode.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return mode
  }

  /// `--rate-kind KIND [--period PERIOD]`: spot (the default) takes no period; average and closing take month
  /// (the default), quarter or year.
  static func rateRule(kind: String?, period: String?) throws(UsageError) -> RateRule {
    let kindText = kind ?? "spot"
    var length = RatePeriod.month
    if let period {
      guard let found = RatePeriod(rawValue: period) else {
        throw UsageError(
          "--period \(period): expected one of \(RatePeriod.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      length = found
    }
    guard let rule = RateRule(kind: kindText, period: length) else {
      throw UsageError("--rate-kind \(kindText): expected one of \(RateRule.kindNames.joined(separator: ", "))")
    }
    if rule == .spot, period != nil {
      throw UsageError("--period is for --rate-kind average or closing; a spot rate is of the record's day")
    }
    return rule
  }

  static func delimiter(_ text: String) throws(UsageError) -> UInt8 {
    switch text {
    case ",": return UInt8(ascii: ",")
    case ";": return UInt8(ascii: ";")
    case "tab", "\\t", "\t": return UInt8(ascii: "\t")
    default: throw UsageError("--delimiter \(text): expected , or ; or tab")
    }
  }

  /// `--header NAME,…`: the field names, each non-empty and named once. The list is one CSV record with commas
  /// (whatever the file's delimiter), read by the CSV reader's own rules (RFC 4180): a name holding a comma, a
  /// quote or a line end is quoted, `--header 'date,"Total, EUR",currency'`.
  static func header(_ text: String) throws(UsageError) -> [String] {
    let names = try csvRecord(text, option: "--header")
    var seen: Set<String> = []
    for name in names {
      guard !name.isEmpty else { throw UsageError("--header \(text): an empty name in the list") }
      guard seen.insert(name).inserted else { throw UsageError("--header \(text): \(name) is named twice") }
    }
    return names
  }

  /// The fields of `text` read as one CSV record with commas by ``CSVReader``, which reads files: the text comes
  /// through a pipe (`/dev/fd/N`) a thread writes, drained to its end after, so that the writer never meets a
  /// closed pipe. No temporary file: `$TMPDIR` may not exist.
  static func csvRecord(_ text: String, option: String) throws(UsageError) -> [String] {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw UsageError("\(option) \(text): cannot read it: \(String(cString: strerror(errno)))") }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    Thread {
      let sink = ByteSink(descriptor: writeEnd)
      try? sink.write(text)
      try? sink.flush()
      close(writeEnd)
    }.start()
    let rest = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true)
    defer { _ = try? rest.readToEnd() }
    let records: [CSVRecord]
    do {
      let reader = try CSVReader(path: "/dev/fd/\(readEnd)", delimiter: UInt8(ascii: ","))
      var read: [CSVRecord] = []
      while let record = try reader.next(), read.count < 2 { read.append(record) }
      records = read
    } catch {
      throw UsageError("\(option) \(text): \(error)")
    }
    guard records.count <= 1 else {
      throw UsageError("\(option) \(text): one line of names expected (quote a name that holds a line end)")
    }
    guard let record = records.first, record.fieldCount > 0 else { return [""] }
    return (0..<record.fieldCount).map { record.field($0) }
  }

  /// `--encoding NAME`, a ``TextEncoding`` (any case).
  static func encoding(_ text: String) throws(UsageError) -> TextEncoding {
    guard let encoding = TextEncoding(rawValue: text.lowercased()) else {
      let names = TextEncoding.allCases.map(\.rawValue)
      throw UsageError(
        "--encoding \(text): expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "utf-8")")
    }
    return encoding
  }

  /// `--format NAME`, a name of ``FormatRegistry``.
  static func format(_ text: String) throws(UsageError) -> RecordFormat {
    guard let format = RecordFormat.named(text) else {
      let names = FormatRegistry.names
      throw UsageError("--format \(text): expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "csv")")
    }
    return format
  }

  /// `--records-path data.items`: member names separated by `.` (`\.` a dot inside a name, as in a field path),
  /// none empty.
  static func recordsPath(_ text: String) throws(UsageError) -> [String] {
    let names = JSONRecordsPath.memberNames(text)
    guard !names.contains(where: \.isEmpty) else {
      throw UsageError("--records-path \(text): expected member names separated by '.', e.g. data.items")
    }
    return names
  }

  static func decimalMark(_ text: String, option: String) throws(UsageError) -> DecimalMark {
    guard let mark = DecimalMark(rawValue: text) else { throw UsageError("\(option) \(text): expected . or ,") }
    return mark
  }

  /// `--alias NAME=CODE` and `--symbol SYMBOL=CODE` values, as one map.
  ///
  /// - Parameters:
  ///   - texts: the option's values, e.g. `["RMB=CNY"]`.
  ///   - option: `--alias` (names of ASCII letters) or `--symbol` (any text without digits or spaces).
  /// - Throws: ``UsageError`` when a value is not `NAME=CODE`, CODE is not an ISO 4217 code, NAME is itself an
  ///   ISO 4217 code (fxbatch never renames one), or NAME is given twice with different codes.
  static func currencyNames(_ texts: [String], option: String) throws(UsageError) -> [String: CurrencyCode] {
    var names: [String: CurrencyCode] = [:]
    let example = option == "--alias" ? "RMB=CNY" : "'$=USD'"
    for text in texts {
      guard let equals = text.firstIndex(of: "=") else { throw UsageError("\(option) \(text): expected \(example)") }
      let name = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
      let codeText = String(text[text.index(after: equals)...])
      let validName =
        option == "--alias"
        ? !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        : !name.isEmpty && !name.unicodeScalars.contains { $0.properties.isWhitespace || ("0"..."9").contains($0) }
      guard validName else { throw UsageError("\(option) \(text): expected \(example)") }
      guard CurrencyCode(name) == nil else {
        throw UsageError("\(option) \(text): \(name.uppercased()) is an ISO 4217 code already")
      }
      guard let code = CurrencyCode(codeText) else {
        throw UsageError("\(option) \(text): \(codeText) is not an ISO 4217 currency code")
      }
      // A symbol may only be narrowed to one of the currencies it names (`$` to USD, CAD, …), never moved:
      // `€=USD` would silently read euros as dollars.
      if option == "--symbol", let named = CurrencySymbols.currencies(for: name), !named.contains(code) {
        let list = named.map(\.description).joined(separator: ", ")
        throw UsageError("\(option) \(text): \(name) names \(list), not \(code)")
      }
      let key = name.lowercased()
      if let earlier = names[key], earlier != code {
        throw UsageError("\(option) \(name) is given as both \(earlier) and \(code)")
      }
      names[key] = code
    }
    return names
  }

  static func dateFormat(_ text: String) throws(UsageError) -> DateFormat {
    guard let format = DateFormat(rawValue: text) else {
      throw UsageError("--date-format \(text): expected one of \(DateFormat.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return format
  }

  static func amountUnit(_ text: String) throws(UsageError) -> AmountUnit {
    guard let unit = AmountUnit(rawValue: text) else {
      throw UsageError("--amount-unit \(text): expected one of \(AmountUnit.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return unit
  }

  /// `--minor-units CODE=N`, each: N (one digit, 0 to 6) decimals for amounts in CODE under `--amount-unit minor`.
  ///
  /// - Throws: ``UsageError`` when a value is not `CODE=N`, CODE is not an ISO 4217 code, N is out of range, or
  ///   a code is given twice with different counts.
  static func minorUnits(_ texts: [String]) throws(UsageError) -> [CurrencyCode: Int] {
    var units: [CurrencyCode: Int] = [:]
    for text in texts {
      guard let equals = text.firstIndex(of: "=") else { throw UsageError("--minor-units \(text): expected CODE=N, e.g. ISK=2") }
      let codeText = String(text[..<equals])
      guard let code = CurrencyCode(codeText) else {
        throw UsageError("--minor-units \(text): \(codeText) is not an ISO 4217 currency code")
      }
      // One ASCII digit: `+3`, `-1`, ` 3`, `03` and `99` are refused, not read as some count.
      let digits = Array(text[text.index(after: equals)...].utf8)
      guard digits.count == 1, let digit = digits.first, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "6") else {
        throw UsageError("--minor-units \(text): expected a number of decimals from 0 to 6 after = (one digit)")
      }
      let count = Int(digit - UInt8(ascii: "0"))
      if let earlier = units[code], earlier != count {
        throw UsageError("--minor-units \(code) is given as both \(earlier) and \(count)")
      }
      units[code] = count
    }
    return units
  }

  /// A service's base URL: http or https, with a host and a valid port.
  static func endpoint(_ text: String, option: String = "--endpoint") throws(UsageError) -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      let host = url.host, !host.isEmpty, url.port.map({ (1...65_535).contains($0) }) ?? true
    else { throw UsageError("\(option) \(text): expected an http:// or https:// URL with a host") }
    return url
  }

  /// Seconds in a range (finite; `nan` and `inf` refused).
  static func seconds(_ text: String, option: String, range: ClosedRange<Double>) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite, range.contains(value),
      !(range.lowerBound == 0 && value == 0 && option == "--timeout")
    else {
      throw UsageError(
        "\(option) \(text): expected seconds from \(range.lowerBound.formatted()) to \(range.upperBound.formatted())")
    }
    return value
  }

  /// `--deadline SECONDS`: the limit of a run's whole fetch phase (default ``FetchDeadline/defaultSeconds``).
  static func deadline(_ text: String?) throws(UsageError) -> FetchDeadline {
    guard let text else { return FetchDeadline() }
    return FetchDeadline(seconds: try seconds(text, option: "--deadline", range: 0.001...86_400))
  }

  /// `--providers A,B`: Frankfurter v2 provider keys as the service spells them, each once, at most
  /// ``FrankfurterProvider/maximumProviders``.
  static func providers(_ text: String) throws(UsageError) -> [String] {
    let keys = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    for key in keys where !FrankfurterProvider.isProviderKey(key) {
      throw UsageError(
        "--providers \(text): '\(key)' is not a provider key as Frankfurter spells them (capitals, digits, _; e.g. ECB,BOC)")
    }
    guard Set(keys).count == keys.count else { throw UsageError("--providers \(text): a provider is named twice") }
    guard keys.count <= FrankfurterProvider.maximumProviders else {
      throw UsageError("--providers \(text): at most \(FrankfurterProvider.maximumProviders) providers")
    }
    return keys
  }
}
