import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The JSON Lines fast path (``JSONFastRecordReader`` in ``FastRecordLoop``: lines in place, flat objects,
/// shapes resolved once, ``TableConverter``) must give byte for byte the output and the report (counts, fields, decimal mark,
/// reconciliation, file errors) of the general path, in one pass and in parts; it leaves every line it does
/// not handle to the general path, and leave no part files behind.
@Suite("JSON Lines fast path = general path", .serialized, .tags(.sanitized))
struct JSONLinesFastPathTests {
  /// A seeded pseudo-random source (a 64-bit LCG).
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
  }

  static let amounts = [
    "12.50", "7", "-3.25", "0", "-0", "-0.00", "0.005", "0.015", "1e3", "1.5E-2", "123456789012345678901", "999999999999999999",
    "0.1234567", "\"12.50\"", "\"1.234,50\"", "\"12,50\"", "\"1,234.50\"", "\"1,234\"", "\"abc\"", "\"\"", "\" 9.99\"", "\"-7\"",
    "null", "true", "[1]", "{\"v\":1}", "\"1\\u0030\"",
  ]
  static let currencies = [
    "\"USD\"", "\"USD\"", "\"JPY\"", "\"GBP\"", "\"CHF\"", "\"EUR\"", "\"usd\"", "\" GBP\"", "\"XXX\"", "\"\"", "null", "12",
    "\"€\"",
    "\"DEM\"", "\"HRK\"", "\"RMB\"", "\"$\"", "\"U\\u0053D\"", "\"BGN\"", "false",
  ]
  static let dates = [
    "\"2024-01-05\"", "\"2024-01-06\"", "\"2024-12-25\"", "\"1998-12-31\"", "\"1999-01-04\"", "\"2030-01-01\"", "\"\"", "null",
    "20240105", "\"2024-02-30\"", "\"05/01/2024\"", "\"2026-11-20\"", "\"2026-10-30\"", "\" \"", "true",
  ]
  static let notes = [
    "\"plain\"", "\"héllo wörld\"", "\"a\\\"b\"", "{\"x\":1}", "[1,2]", "\"tab\there\"", "3.5", "null", "\"\u{7F}\"",
    "\"\\u00e9\"",
  ]

  /// Part files of this process left in the temporary directory (JSON Lines parts have their own prefix, so
  /// that this check and the CSV suites' run side by side without taking each other's files).
  static func leftoverPartFiles() -> [String] {
    let prefix = "fxbatch-jsonl-part-\(getpid())-"
    return ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter { $0.hasPrefix(prefix) }
  }

  /// Runs the general path and the fast path in 1, 2, 3 and 5 parts on the bytes of a JSON Lines file and
  /// records the first difference of output or report (``CSVFastPathAdversarialTests/run(input:output:fastPath:parts:rates:configure:)``).
  @discardableResult
  static func check(
    _ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Bool {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("in.jsonl").path
    let output = directory.url.appendingPathComponent("out.jsonl").path
    try Data(bytes).write(to: URL(fileURLWithPath: input))
    let before = Set(leftoverPartFiles())
    let rates = EmbeddedECBHistory.table
    let general = try CSVFastPathAdversarialTests.run(
      input: input, output: output, fastPath: false, parts: 1, rates: rates, configure: configure)
    var same = true
    for parts in [1, 2, 3, 5] {
      let fast = try CSVFastPathAdversarialTests.run(
        input: input, output: output, fastPath: true, parts: parts, rates: rates, configure: configure)
      guard fast != general else { continue }
      same = false
      var detail = ""
      if fast.report != general.report {
        detail += "\n  report fast:    \(CSVFastPathAdversarialTests.summary(fast.report))"
        detail += "\n  report general: \(CSVFastPathAdversarialTests.summary(general.report))"
      }
      let a = String(decoding: fast.output ?? Data(), as: UTF8.self).components(separatedBy: "\n")
      let b = String(decoding: general.output ?? Data(), as: UTF8.self).components(separatedBy: "\n")
      if let line = zip(a, b).enumerated().first(where: { $0.1.0 != $0.1.1 }) {
        detail += "\n  output line \(line.offset + 1): fast \(line.element.0.debugDescription)"
        detail += "\n    general \(line.element.1.debugDescription)"
      } else if a.count != b.count {
        detail += "\n  output lines: fast \(a.count), general \(b.count)"
      }
      Issue.record("\(name): parts \(parts) differs from the general path\(detail)", sourceLocation: sourceLocation)
      break
    }
    let after = CSVFastPathAdversarialTests.lingering(leftoverPartFiles, before: before)
    if !after.isEmpty {
      Issue.record("\(name): part files left behind: \(after.sorted())", sourceLocation: sourceLocation)
      for file in after { unlink((NSTemporaryDirectory() as NSString).appendingPathComponent(file)) }
    }
    return same
  }

  @discardableResult
  static func check(
    _ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Bool {
    try check(name, Array(text.utf8), sourceLocation: sourceLocation, configure: configure)
  }

  /// One record line: mostly flat compact objects, with the members in varying order, renamed, doubled,
  /// spaced, nested, escaped, or annotation members; and lines that are not objects or not JSON.
  static func line(_ random: inout Random, index: Int) -> String {
    switch random.next(30) {
    case 0: return random.pick(["", "   ", "\t", "\r", " \r"])
    case 1:
      return random.pick([
        "{\"amount\":1", "[1,2]", "42", "\"text\"", "{\"amount\":01,\"from\":\"USD\",\"to\":\"EUR\"}", "{\"a\":1,}", "{}",
        "not json",
        "{\"amount\":1.,\"from\":\"USD\",\"to\":\"EUR\"}", "{\"amount\":-,\"from\":\"USD\",\"to\":\"EUR\"}", "{\"amount\":tru}",
        "\u{FEFF}{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}", "{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}x",
        "{\"amount\":1e,\"from\":\"USD\",\"to\":\"EUR\"}", "{\"amount\":nul}",
      ])
    default: break
    }
    var members: [(String, String)] = [
      ("id", "\(index)"), ("date", random.pick(dates)), ("amount", random.pick(amounts)), ("from", random.pick(currencies)),
      ("to", random.next(3) == 0 ? random.pick(currencies) : random.pick(["\"EUR\"", "\"USD\"", "\"JPY\"", "\"GBP\""])),
    ]
    if random.next(3) == 0 { members.append(("note", random.pick(notes))) }
    switch random.next(25) {
    case 0: members.removeAll { $0.0 == "date" }
    case 1: members.removeAll { $0.0 == "amount" }
    case 2: members.removeAll { $0.0 == "to" }
    case 3: members.append(("Amount", "5"))  // two members name the amount field
    case 4: members.append(("from", "\"GBP\""))  // a member twice
    case 5: members.append(("fx_status", "\"ok\""))
    case 6: members.append(("fx_input", "\"x\""))
    case 7: members[2].0 = "value"
    case 8: members[3].0 = "Currency"
    case 9: members[2].0 = "am\\u006fount"
    case 10: members[0].0 = "idé"
    default: break
    }
    if random.next(4) == 0 {
      for position in members.indices.reversed() where position > 0 { members.swapAt(position, random.next(position + 1)) }
    }
    let (colon, comma) =
      random.next(4) == 0
      ? (random.pick([": ", ":", " :", ":\t", " : "]), random.pick([", ", ",", " ,", ",\t", " , "])) : (":", ",")
    let body = members.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma)
    switch random.next(30) {
    case 0: return " {\(body)}"
    case 1: return "{\(body)} "
    case 2: return "{ \(body) }"
    case 3: return "{\t\(body)}"
    case 4: return "{\(body)\r}"
    default: return "{\(body)}"
    }
  }

  /// A messy JSON Lines file: a byte order mark or not, LF or CRLF line ends (mixed), a last line with or
  /// without its line end.
  static func messyFile(lines: Int, seed: UInt64) -> [UInt8] {
    var random = Random(state: seed)
    var text = random.next(4) == 0 ? "\u{FEFF}" : ""
    let crlf = random.next(3) == 0
    for index in 0..<lines {
      text += line(&random, index: index)
      if index < lines - 1 || random.next(2) == 0 { text += crlf && random.next(5) > 0 ? "\r\n" : "\n" }
    }
    return Array(text.utf8)
  }

  /// Option sets the fast path must honour (or leave alone).
  static let configurations: [(String, @Sendable (inout BatchOptions) -> Void)] = [
    ("default", { _ in }),
    ("decimal comma", { $0.decimalMark = .comma }),
    ("decimal point", { $0.decimalMark = .point }),
    // The records have currency members: --from/--to apply to them only with --override-currency-fields.
    (
      "fixed from",
      {
        $0.fixedFrom = CurrencyCode("USD")
        $0.overrideCurrencyFields = true
      }
    ),
    (
      "fixed to, no date",
      {
        $0.fixedTo = CurrencyCode("CHF")
        $0.overrideCurrencyFields = true
      }
    ),
    ("named fields", { $0.fieldNames = FieldNames(amount: "value", from: "Currency", date: "id") }),
    (
      "half-even, staleness 0",
      {
        $0.rounding = .halfEven
        $0.maxStaleness = 0
      }
    ),
    ("output comma", { $0.outputDecimalMark = .comma }),
  ]

  @Test(arguments: 0..<4)
  func randomFiles(batch: Int) throws {
    for seed in UInt64(batch * 4)..<UInt64(batch * 4 + 4) {
      let bytes = Self.messyFile(lines: 100 + Int(seed % 5) * 25, seed: seed)
      let (name, configure) = Self.configurations[Int(seed) % Self.configurations.count]
      try Self.check("seed \(seed), \(name)", bytes, configure: configure)
    }
  }

  /// A big file of mostly convertible records, so that most lines take the fast path, with messy lines mixed
  /// in; in parts on several threads.
  @Test func mostlyConvertibleFileInParts() throws {
    var random = Random(state: 99)
    var text = ""
    for index in 0..<2000 {
      if random.next(50) == 0 {
        text += Self.line(&random, index: index) + "\n"
        continue
      }
      let date = "2024-\(String(format: "%02d", random.next(12) + 1))-\(String(format: "%02d", random.next(28) + 1))"
      let amount =
        random.next(5) == 0
        ? "\"\(random.next(100_000)),\(random.next(90) + 10)\"" : "\(random.next(100_000)).\(random.next(100))"
      let from = random.pick(["USD", "JPY", "GBP", "CHF", "SEK", "CNY", "HKD", "MXN"])
      text += "{\"id\":\(index),\"date\":\"\(date)\",\"amount\":\(amount),\"from\":\"\(from)\",\"to\":\"EUR\"}\n"
    }
    let same = try Self.check("mostly convertible", Array(text.utf8))
    #expect(same)
  }

  /// Records spaced as Python's `json.dumps` writes them (`{"id": 1, "amount": 12.5}`), and in other ways
  /// that change from line to line: the annotation members are spaced like each record's own.
  @Test func spacedRecordsInParts() throws {
    var random = Random(state: 3)
    var text = ""
    for index in 0..<1500 {
      let (colon, comma, open) =
        index < 1200 ? (": ", ", ", "") : (random.pick([" : ", ":\t"]), random.pick([" ,", ",  "]), random.pick(["", " "]))
      let from = random.pick(["USD", "JPY", "GBP", "CHF"])
      let members = [
        "\"id\"\(colon)\(index)", "\"date\"\(colon)\"2024-02-\(String(format: "%02d", random.next(28) + 1))\"",
        "\"amount\"\(colon)\(random.next(10_000)).\(random.next(100))", "\"from\"\(colon)\"\(from)\"", "\"to\"\(colon)\"EUR\"",
      ]
      text += "{\(open)" + members.prefix(random.next(8) == 0 ? 1 : 5).joined(separator: comma) + "\(open)}\n"
    }
    try Self.check("spaced", text)
  }

  @Test func lineEndsBlankLinesAndByteOrderMarks() throws {
    let record = "{\"date\":\"2024-01-05\",\"amount\":12.5,\"from\":\"USD\",\"to\":\"EUR\"}"
    let cases: [(String, String)] = [
      ("empty file", ""),
      ("only a byte order mark", "\u{FEFF}"),
      ("byte order mark, then a line end", "\u{FEFF}\n"),
      ("byte order mark and a record", "\u{FEFF}\(record)\n\(record)"),
      ("CRLF", "\(record)\r\n\r\n\(record)\r\n"),
      ("no last line end", "\(record)\n\(record)"),
      ("CR inside the line", "\(record)\r\r\n\(record)\r"),
      ("blank lines", "\n \n\t\n\(record)\n\r\n\n"),
      ("only blank lines", "\n\n  \n"),
      ("lone CR as a line end", "\(record)\r\(record)\r"),
      ("a byte order mark starting a later line", "\(record)\n\u{FEFF}\(record)\n\(record)\n"),
      ("two byte order marks", "\u{FEFF}\u{FEFF}\(record)\n\(record)\n"),
      ("a byte order mark after spaces", "\(record)\n \u{FEFF}\(record)"),
      ("a byte order mark inside a string", "{\"note\":\"\u{FEFF}\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n"),
    ]
    for (name, text) in cases {
      try Self.check(name, text)
    }
    // Lines longer than the reader's block (1 MB): its buffer grows.
    let long = String(repeating: "x", count: 1_100_000)
    try Self.check(
      "long lines", "\(record)\n{\"note\":\"\(long)\",\"amount\":2,\"from\":\"GBP\",\"to\":\"EUR\"}\n\(record)\n")
    // Raw bytes that are not UTF-8, inside strings the record copies and one it decodes.
    var bytes = Array("{\"note\":\"".utf8) + [0xFF, 0xC3] + Array("\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n".utf8)
    bytes += Array("{\"amount\":1,\"from\":\"US".utf8) + [0xFF] + Array("\",\"to\":\"EUR\"}\n".utf8)
    try Self.check("invalid UTF-8", bytes)
    try Self.check(
      "partial byte order mark", [0xEF, 0xBB] + Array("\(record)\n".utf8))
  }

  /// File errors of pass 1 are the general path's, at the same line and column.
  @Test func fileErrorsAreTheSame() throws {
    let record = "{\"date\":\"2024-01-05\",\"amount\":12.5,\"from\":\"USD\",\"to\":\"EUR\"}"
    let annotated =
      "{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\",\"fx_rate\":\"1\",\"fx_converted\":\"1\",\"fx_currency\":\"EUR\",\"fx_rate_date\":\"2024-01-05\",\"fx_source\":\"x\",\"fx_status\":\"ok\",\"fx_error\":\"\"}"
    let cases: [(String, String)] = [
      ("already annotated", "\n[1]\nnot json\n\(annotated)\n\(record)\n"),
      ("no amount field", "{\"sum2\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n{\"x\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n"),
      ("amount only after the first record", "{\"x\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n\(record)\n"),
      ("no to field", "{\"amount\":1,\"from\":\"USD\"}\n{\"amount\":2,\"from\":\"USD\"}\n"),
      // The first record object is past the first part's end: pass 1 reads the file again in one pass.
      ("annotated after many lines that are not objects", String(repeating: "[1]\n", count: 60) + annotated + "\n"),
      ("objects only late", String(repeating: "not json\n", count: 60) + "{\"x\":1,\"from\":\"USD\"}\n\(record)\n"),
    ]
    for (name, text) in cases {
      try Self.check(name, text)
    }
    // The checks compare reports; the first case must really be a file error.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("in.jsonl")
    try "\n[1]\n\(annotated)\n".write(to: input, atomically: true, encoding: .utf8)
    let outcome = try CSVFastPathAdversarialTests.run(
      input: input.path, output: directory.url.appendingPathComponent("out.jsonl").path, fastPath: true, parts: 2,
      rates: EmbeddedECBHistory.table, configure: { _ in })
    #expect(outcome.report.files.first?.fileError?.hasPrefix("\(input.path):3:1: error: the file is already annotated") == true)
  }

  /// fxbatch issue 13: a record spaced more widely than an annotation template holds (about 25 bytes of
  /// whitespace around each member) trapped in the template; it takes the general path, with the same output.
  @Test(arguments: [1, 24, 25, 26, 40, 300])
  func wideSpacingTakesTheGeneralPath(width: Int) throws {
    let spaces = String(repeating: " ", count: width)
    let tabs = String(repeating: "\t", count: width)
    let mixed = String(repeating: " \t", count: width)
    let text =
      [
        "{\"date\":\"2024-01-05\",\(spaces)\"amount\":12.5,\(spaces)\"from\":\"USD\",\(spaces)\"to\":\"EUR\"}",
        "{\(tabs)\"date\"\(tabs):\(tabs)\"2024-01-05\"\(tabs),\(tabs)\"amount\"\(tabs):\(tabs)7\(tabs),"
          + "\(tabs)\"from\"\(tabs):"
          + "\(tabs)\"GBP\"\(tabs),\(tabs)\"to\"\(tabs):\(tabs)\"EUR\"\(tabs)}",
        "{\"date\":\"2024-01-05\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}",
        "{\"date\" :\(mixed)\"2024-01-05\",\(mixed)\"amount\" :\(mixed)2,\(mixed)\"from\" :\(mixed)\"USD\","
          + "\(mixed)\"to\" :"
          + "\(mixed)\"JPY\"}",
        "{\"date\":\"2024-01-05\", \"amount\":3, \"from\":\"USD\", \"to\":\"EUR\"}",
      ].joined(separator: "\n") + "\n"
    #expect(try Self.check("spacing \(width)", text))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("in.jsonl")
    try text.write(to: input, atomically: true, encoding: .utf8)
    let output = directory.url.appendingPathComponent("out.jsonl")
    let fast = try CSVFastPathAdversarialTests.run(
      input: input.path, output: output.path, fastPath: true, parts: 1, rates: EmbeddedECBHistory.table
    ) { _ in }
    #expect(fast.report.totals.ok == 5)
    // Each record's annotation is spaced as its own members are.
    let lines = String(decoding: fast.output ?? Data(), as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines.first?.contains(",\(spaces)\"fx_status\":\"ok\",\(spaces)\"fx_error\":\"\"}") == true)
    #expect(lines.dropFirst().first?.contains(",\(tabs)\"fx_error\"\(tabs):\(tabs)\"\"\(tabs)}") == true)
  }

  /// Many record shapes (member orders and names), more than one part.
  @Test func manyShapes() throws {
    var random = Random(state: 5)
    var text = ""
    let extra = ["a", "b", "c", "d", "e", "amt", "sum", "currency", "target", "day"]
    for index in 0..<800 {
      var members = [
        ("amount", "\(random.next(1000)).\(random.next(100))"), ("from", random.pick(["\"USD\"", "\"GBP\""])), ("to", "\"EUR\""),
        ("date", "\"2024-03-\(String(format: "%02d", random.next(28) + 1))\""),
      ]
      for _ in 0..<random.next(4) { members.append((random.pick(extra), "\"\(random.pick(["USD", "1", "x"]))\"")) }
      for position in members.indices.reversed() where position > 0 { members.swapAt(position, random.next(position + 1)) }
      text += "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
      if index % 500 == 0 { text += "{\"id\":\(index)}\n" }
    }
    try Self.check("many shapes", text)
  }

  /// A line the flat-object scanner accepts is one the general parser reads as an object with the same member
  /// names and values (strings without quotes, numbers and literals as written).
  @Test func flatObjectScannerAgreesWithTheParser() throws {
    var random = Random(state: 11)
    var accepted = 0
    let names = [
      "\"a\"", "\"b\"", "\"é\"", "\"\"", "\"a\\\"\"", "a", "\"x\ty\"", "\"amount\"", "\"transaction_date\"",
      "\"abcdefgh\\\"xyzxyzxyz\"", "\"abcdefghij\tk\"", "\"abcdefghi\u{1}", "\"abcdefghi\\", "\"abcdefghijk\\\"",
    ]
    let values = [
      "1", "-0", "01", "1.5", "1.", "-", "1e5", "1E+5", "1e", "\"s\"", "\"\"", "\"\\n\"", "true", "null", "fals", "nul", "[]",
      "{}",
      "\"a\"b\"", "-1.25e-3", "0.0", "-01", "2E-0", ".5", "\"\u{7F}ü\"", "truex",
      // Longer strings, read eight bytes at a time: a quote, a backslash, a control byte at varying offsets.
      "\"abcdefghijklmnop\"", "\"abcdefgh\\\"ijk\"", "\"abcdefghijk\u{1}lm\"", "\"ééééééééé\"", "\"abcdefg\"",
      "\"abcdefgh\"", "\"abcdefghi\"", "\"\u{1F}abcdefghij\"", "\"abcdefghijklmno\\\"",
      // Nested values, skipped whole (escapes are read there), and nested values the parser refuses.
      "{\"a\":1}", "[1,2]", "[]", "{ }", "[ [ ] , {} ]", "{\"a\":{\"b\":[1,{\"c\":\"d\"}]}}", "{\"a\\\"b\":\"c\\n\\u00e9\"}",
      "[\"\\ud83d\\ude00\"]", "[\"\\ud83d\"]", "[\"\\x\"]", "[1,]", "{\"a\":1,}", "{\"a\"}", "[01]", "[1 2]", "{\"a\":tru}",
      "[\"\u{1}\"]", "{\"a\" : [ 1 ,\t2 ] }", "[\"\\u12\"]", "[[[[[[[[1]]]]]]]]", "[\"é\", -0.5e+3, null, false]", "{\"a\":}",
      "[", "{\"a\":[}", "[1]]", "{\"a\":\"\\uDC00\"}", "[\"\\uABCD\"]",
    ]
    for round in 0..<40_000 {
      var members: [String] = []
      for _ in 0..<random.next(5) {
        let colon = random.next(10) == 0 ? random.pick([" :", "::", "", ": ", "\t:\t", ":\r"]) : ":"
        members.append(random.pick(names) + colon + random.pick(values))
      }
      let comma = random.next(10) == 0 ? random.pick([", ", ",,", "", " , ", "\t,"]) : ","
      var text = random.pick(["{", "{", "{ ", "{\t"]) + members.joined(separator: comma) + random.pick(["}", "}", " }", "\r}"])
      if round % 20 == 0 { text = random.pick([" ", "", "x"]) + text + random.pick([" ", "", "}", "\r"]) }
      let bytes = Array(text.utf8)
      var object = FlatJSONObject()
      let scanned = bytes.withUnsafeBufferPointer { object.scan(ByteView($0)) }
      guard scanned else { continue }
      accepted += 1
      let value = try? JSONParser.parse(bytes)
      guard case .object(let members)? = value else {
        Issue.record("accepted, but the parser does not read an object: \(text)")
        continue
      }
      bytes.withUnsafeBufferPointer { pointer in
        let buffer = ByteView(pointer)
        #expect(members.count == object.count, "\(text)")
        let layout = object.layout(in: buffer)
        if let expected = JSONObjectLayout(of: bytes) {
          #expect(object.insertion == expected.insertion, "\(text)")
          #expect(Array(layout.separator) == expected.separator, "\(text)")
          #expect(Array(layout.beforeColon) == expected.beforeColon, "\(text)")
          #expect(Array(layout.afterColon) == expected.afterColon, "\(text)")
          // A compact object is written with the compact template.
          #expect(!object.isCompact || (expected.separator + expected.beforeColon + expected.afterColon).isEmpty, "\(text)")
        } else {
          Issue.record("accepted, but it has no object layout: \(text)")
        }
        for (index, member) in members.enumerated() where index < object.count {
          #expect(object.name(index, in: buffer).text == member.key, "\(text)")
          let raw = object.value(index, in: buffer).text
          switch (member.value, object.kind(index)) {
          case (.string(let text), .string), (.number(let text), .number): #expect(raw == text, "\(text)")
          case (.null, .literal): #expect(raw == "null")
          case (.bool(let flag), .literal): #expect(raw == (flag ? "true" : "false"))
          case (.string(let text), .escapedString):
            #expect((try? JSONParser.parse(Array("\"\(raw)\"".utf8))) == .string(text), "\(text)")
          case (.object, .object), (.array, .array):
            #expect((try? JSONParser.parse(Array(raw.utf8))) == member.value, "\(text)")
          default: Issue.record("member \(index) of \(text): \(member.value) read as \(object.kind(index))")
          }
        }
      }
    }
    #expect(accepted > 1000)
  }
}
