import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// JSON Lines' own inputs: the fast path (flat and nested records read in place) must give the general path's
/// bytes, counts, whole report and reconciliation, in one part and in 2, 3 and 5, for messy files under every
/// option set (``JSONLinesFastPathTests/configurations``), line ends, blank lines and byte order marks, file
/// errors, wide spacing, many shapes, nested records (``JSONNestedFastPathTests``), names that compare as strings
/// do and escaped strings, and leave no part files behind.
extension FastGeneralDifferentialTests {
  @Test(arguments: 0..<4)
  func jsonLinesRandomFiles(batch: Int) throws {
    for seed in UInt64(batch * 4)..<UInt64(batch * 4 + 4) {
      let bytes = JSONLinesFastPathTests.messyFile(lines: 100 + Int(seed % 5) * 25, seed: seed)
      let (name, configure) = JSONLinesFastPathTests.configurations[Int(seed) % JSONLinesFastPathTests.configurations.count]
      try JSONLinesFastPathTests.check("seed \(seed), \(name)", bytes, configure: configure)
    }
  }

  /// A big file of mostly convertible records, so that most lines take the fast path, with messy lines mixed
  /// in; in parts on several threads.
  @Test func jsonLinesMostlyConvertibleFileInParts() throws {
    var random = JSONLinesFastPathTests.Random(state: 99)
    var text = ""
    for index in 0..<2000 {
      if random.next(50) == 0 {
        text += JSONLinesFastPathTests.line(&random, index: index) + "\n"
        continue
      }
      let date = "2024-\(String(format: "%02d", random.next(12) + 1))-\(String(format: "%02d", random.next(28) + 1))"
      let amount =
        random.next(5) == 0
        ? "\"\(random.next(100_000)),\(random.next(90) + 10)\"" : "\(random.next(100_000)).\(random.next(100))"
      let from = random.pick(["USD", "JPY", "GBP", "CHF", "SEK", "CNY", "HKD", "MXN"])
      text += "{\"id\":\(index),\"date\":\"\(date)\",\"amount\":\(amount),\"from\":\"\(from)\",\"to\":\"EUR\"}\n"
    }
    let same = try JSONLinesFastPathTests.check("mostly convertible", Array(text.utf8))
    #expect(same)
  }

  /// Records spaced as Python's `json.dumps` writes them (`{"id": 1, "amount": 12.5}`), and in other ways
  /// that change from line to line: the annotation members are spaced like each record's own.
  @Test func jsonLinesSpacedRecordsInParts() throws {
    var random = JSONLinesFastPathTests.Random(state: 3)
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
    try JSONLinesFastPathTests.check("spaced", text)
  }

  @Test func jsonLinesLineEndsBlankLinesAndByteOrderMarks() throws {
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
      try JSONLinesFastPathTests.check(name, text)
    }
    // Lines longer than the reader's block (1 MB): its buffer grows.
    let long = String(repeating: "x", count: 1_100_000)
    try JSONLinesFastPathTests.check(
      "long lines", "\(record)\n{\"note\":\"\(long)\",\"amount\":2,\"from\":\"GBP\",\"to\":\"EUR\"}\n\(record)\n")
    // Raw bytes that are not UTF-8, inside strings the record copies and one it decodes.
    var bytes = Array("{\"note\":\"".utf8) + [0xFF, 0xC3] + Array("\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}\n".utf8)
    bytes += Array("{\"amount\":1,\"from\":\"US".utf8) + [0xFF] + Array("\",\"to\":\"EUR\"}\n".utf8)
    try JSONLinesFastPathTests.check("invalid UTF-8", bytes)
    try JSONLinesFastPathTests.check(
      "partial byte order mark", [0xEF, 0xBB] + Array("\(record)\n".utf8))
  }

  /// File errors of pass 1 are the general path's, at the same line and column.
  @Test func jsonLinesFileErrorsAreTheSame() throws {
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
      try JSONLinesFastPathTests.check(name, text)
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
  func jsonLinesWideSpacingTakesTheGeneralPath(width: Int) throws {
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
    #expect(try JSONLinesFastPathTests.check("spacing \(width)", text))
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
  @Test func jsonLinesManyShapes() throws {
    var random = JSONLinesFastPathTests.Random(state: 5)
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
    try JSONLinesFastPathTests.check("many shapes", text)
  }

  /// A line the flat-object scanner accepts is one the general parser reads as an object with the same member
  /// names and values (strings without quotes, numbers and literals as written).
  @Test func jsonLinesFlatObjectScannerAgreesWithTheParser() throws {
    var random = JSONLinesFastPathTests.Random(state: 11)
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

  /// Nested JSON Lines records (``JSONNestedFastPathTests/record(_:index:)``) under each configuration.
  @Test(arguments: 0..<6)
  func jsonLinesNestedRecords(configuration: Int) throws {
    let (name, configure) = JSONNestedFastPathTests.configurations[configuration]
    for seed in UInt64(configuration * 3)..<UInt64(configuration * 3 + 3) {
      let text = JSONNestedFastPathTests.lines(150, seed: seed).joined(separator: "\n") + "\n"
      try JSONLinesFastPathTests.check("JSON Lines seed \(seed), \(name)", text, configure: configure)
    }
  }

  /// Member names on a path compare as Swift strings do (canonical equivalence): U+212A KELVIN SIGN is `K`, so
  /// the general path sees `K` twice, and the fast path, which compares bytes, must leave such records to it.
  @Test func jsonLinesNamesCompareAsStringsDo() throws {
    let text = [
      "{\"t\":{\"\u{212A}\":\"1\",\"K\":\"2\"},\"from\":\"USD\",\"date\":\"2024-01-05\"}",
      "{\"t\":{\"K\":\"3\"},\"from\":\"USD\",\"date\":\"2024-01-05\"}",
      "{\"t\":{\"\u{212A}\":\"4\"},\"from\":\"USD\",\"date\":\"2024-01-05\"}",
      "{\"t\":{\"value\":\"5\",\"curr\u{0065}\u{0301}ncy\":\"EUR\",\"currency\":\"GBP\"},\"date\":\"2024-01-05\"}",
    ].joined(separator: "\n")
    #expect(
      try JSONLinesFastPathTests.check("Kelvin", text) {
        $0.fieldNames = FieldNames(amount: "t.K")
        $0.fixedTo = CurrencyCode("EUR")
      })
    #expect(
      try JSONLinesFastPathTests.check("money", text) {
        $0.fieldNames = FieldNames(amount: "t")
        $0.fixedTo = CurrencyCode("EUR")
      })
  }

  /// A record whose string values hold escapes stays on the fast path when no field is one of them; a field
  /// written with escapes (`"1\u002e234,50"` is `"1.234,50"`, evidence of a decimal comma) is read by the
  /// general path, which decodes it.
  @Test func jsonLinesEscapedStrings() throws {
    var lines: [String] = []
    for index in 0..<40 {
      let note = "\"a \\\"quoted\\\" note \\u00e9\\n\""
      let amount = index % 2 == 0 ? "\"1\\u002e234,5\(index % 10)\"" : "7"
      lines.append("{\"id\":\(index),\"note\":\(note),\"amount\":\(amount),\"from\":\"USD\",\"date\":\"2024-01-05\"}")
    }
    let text = lines.joined(separator: "\n") + "\n"
    #expect(try JSONLinesFastPathTests.check("escaped amounts", text) { $0.fixedTo = CurrencyCode("EUR") })
    let bytes = Array(lines[1].utf8)
    bytes.withUnsafeBufferPointer { pointer in
      var object = FlatJSONObject()
      let scanned = object.scan(ByteView(pointer))
      #expect(scanned)
      #expect(object.kind(1) == .escapedString)
    }
  }
}
