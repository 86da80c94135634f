import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// JSON documents' own inputs: the byte-level path (a document's records array read in place, in parts) must
/// give the general path's bytes, counts, whole report and reconciliation, in one part and in 2, 3 and 5, for
/// random documents in every layout, under a records path, part guesses that do not hold, long records and small
/// documents, wide spacing, malformed documents, file errors, nested records (``JSONNestedFastPathTests``), and
/// leave no part files behind; with the reader's and value scanner's direct checks.
extension FastGeneralDifferentialTests {
  @Test(arguments: JSONDocumentFastPathTests.Layout.allCases)
  func jsonDocumentRandomDocuments(layout: JSONDocumentFastPathTests.Layout) throws {
    var totals = RunReport.Counts()
    var converted = 0
    for seed in UInt64(0)..<8 {
      let text = JSONDocumentFastPathTests.document(records: 60 + Int(seed % 4) * 30, seed: seed * 7 + 1, layout: layout)
      let (name, configure) = JSONLinesFastPathTests.configurations[Int(seed) % JSONLinesFastPathTests.configurations.count]
      let general = try JSONDocumentFastPathTests.check("\(layout) seed \(seed), \(name)", text, configure: configure)
      if general.report.files.first?.fileError == nil {
        converted += 1
        // The byte-level path followed the document (the output comma has no fast path: the general one runs).
        let scan = try JSONDocumentFastPathTests.fastScan(text, configure: configure)
        #expect((scan?.jsonArray != nil) == (name != "output comma"), "\(layout) seed \(seed), \(name)")
      }
      totals.add(general.report.totals)
    }
    // The documents are converted (one option set names fields they lack), with records of every outcome.
    #expect(converted >= 7)
    #expect(totals.ok > 30 && totals.error > 100)
  }

  /// Records under `--records-path data.items`, with brackets and an `items` member elsewhere in the document.
  @Test(arguments: JSONDocumentFastPathTests.Layout.allCases)
  func jsonDocumentRecordsPath(layout: JSONDocumentFastPathTests.Layout) throws {
    for seed in UInt64(0)..<3 {
      let text = JSONDocumentFastPathTests.document(records: 80, seed: seed + 100, layout: layout, recordsPath: true)
      let general = try JSONDocumentFastPathTests.check("records path \(layout) seed \(seed)", text) { $0.recordsPath = ["data", "items"] }
      #expect(general.report.files.first?.fileError == nil)
      #expect(general.report.totals.records == 80)
    }
    let scan = try JSONDocumentFastPathTests.fastScan(JSONDocumentFastPathTests.document(records: 80, seed: 100, layout: layout, recordsPath: true), parts: 3) {
      $0.recordsPath = ["data", "items"]
    }
    #expect(scan?.jsonArray?.partStarts.count == 2)
  }

  /// A document of mostly convertible records, so that most take the fast path, in parts whose boundaries
  /// fall among strings that look like record boundaries.
  @Test(arguments: [JSONDocumentFastPathTests.Layout.perLine, .pretty, .compact])
  func jsonDocumentMostlyConvertibleDocumentInParts(layout: JSONDocumentFastPathTests.Layout) throws {
    var random = JSONDocumentFastPathTests.Random(state: 99)
    var items: [String] = []
    for index in 0..<3000 {
      let date = "2024-\(String(format: "%02d", random.next(12) + 1))-\(String(format: "%02d", random.next(28) + 1))"
      let amount =
        random.next(5) == 0
        ? "\"\(random.next(100_000)),\(random.next(90) + 10)\"" : "\(random.next(100_000)).\(random.next(100))"
      let from = random.pick(["USD", "JPY", "GBP", "CHF", "SEK", "CNY", "HKD", "MXN"])
      var members = [
        "\"id\": \(index)", "\"date\": \"\(date)\"", "\"amount\": \(amount)", "\"from\": \"\(from)\"", "\"to\": \"EUR\"",
      ]
      if random.next(3) == 0 { members.append("\"note\": \"},\\n{\\\"id\\\": 1,\\n\\\"x\\\": [\"") }
      if random.next(20) == 0 { members.removeSubrange(1...1) }  // undated
      items.append(
        layout == .pretty
          ? "  {\n    " + members.joined(separator: ",\n    ") + "\n  }" : "{" + members.joined(separator: ", ") + "}")
    }
    let text =
      switch layout {
      case .pretty: "[\n" + items.joined(separator: ",\n") + "\n]\n"
      case .compact: "[" + items.joined(separator: ",") + "]"
      default: "[" + items.joined(separator: ",\n") + "]\n"
      }
    let general = try JSONDocumentFastPathTests.check("mostly convertible \(layout)", text)
    #expect(general.report.totals.ok > 2000)
    #expect(general.report.rates.recordsWithoutDate > 50)
    // The byte-level path read it, and placed the parts between records.
    let scan = try JSONDocumentFastPathTests.fastScan(text, parts: 5)
    let starts = scan?.jsonArray?.partStarts ?? []
    #expect(starts.count == 4)
    let bytes = Array(text.utf8)
    for start in starts {
      #expect(bytes[start.offset] == UInt8(ascii: "{"))
      let before = bytes[..<start.offset].reversed().first { ![0x20, 0x0A].contains($0) }
      #expect(before == UInt8(ascii: ","))
      let lineStart = bytes[..<start.offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      #expect(start.column == start.offset - lineStart + 1)
      #expect(start.line == bytes[..<start.offset].filter { $0 == 0x0A }.count + 1)
    }
  }

  /// Pass 1 in parts guesses where records start (a `{` after a `,`); guesses inside a record (an array of
  /// objects, a string) or after the records array do not hold, and the array is then read in one pass: the
  /// same findings and output either way.
  @Test(arguments: [", \"tags\": [{\"x\": 1}, {\"y\": \"]\"}, {\"z\": [{}, {}]}]", ", \"note\": \"a, {b, {c, {d, {e\"", ""])
  func jsonDocumentPartGuessesThatDoNotHold(extra: String) throws {
    let items = (0..<400).map { "{\"id\": \($0), \"amount\": \($0).5, \"from\": \"USD\", \"to\": \"EUR\"\(extra)}" }
    let array = "[" + items.joined(separator: ", ") + "]"
    // After the records, as many bytes of objects after commas: a guess there is past the array's end.
    let after = "[" + Array(repeating: "1, {\"a\": [2, {}]}", count: 400).joined(separator: ", ") + "]"
    for recordsPath in [false, true] {
      let text = recordsPath ? "{\"items\": \(array),\n\"after\": \(after)}" : array
      let configure: (inout BatchOptions) -> Void = { $0.recordsPath = recordsPath ? ["items"] : [] }
      let general = try JSONDocumentFastPathTests.check("guesses \(extra) \(recordsPath)", text, configure: configure)
      #expect(general.report.totals.ok == 400)
      let one = try JSONDocumentFastPathTests.fastScan(text, configure: configure)?.jsonArray
      #expect(one != nil)
      for parts in [2, 3, 5, 8] {
        let inParts = try JSONDocumentFastPathTests.fastScan(text, parts: parts, configure: configure)?.jsonArray
        #expect(inParts?.start == one?.start && inParts?.end == one?.end)
      }
    }
  }

  /// Records longer than the reader's block (1 MB): its buffer grows; and a document of one record.
  @Test func jsonDocumentLongRecordsAndSmallDocuments() throws {
    let record = "{\"date\":\"2024-01-05\",\"amount\":12.5,\"from\":\"USD\",\"to\":\"EUR\"}"
    let long = String(repeating: "x", count: 1_100_000)
    let cases: [(String, String)] = [
      ("long records", "[\(record),\n{\"note\":\"\(long)\",\"amount\":2,\"from\":\"GBP\",\"to\":\"EUR\"},\n\(record)]"),
      (
        "long number",
        "[\(record), {\"amount\": 1\(String(repeating: "0", count: 1_100_000)), \"from\": \"USD\", \"to\": \"EUR\"}]"
      ),
      ("one record", "[\(record)]"),
      ("one number", "[1]"),
      ("empty array", "[]"),
      ("empty array with space", " [ \r\n ] \n"),
      ("byte order mark", "\u{FEFF}[\(record)]"),
      ("already annotated members in a later record", "[\(record), {\"amount\": 1, \"fx_error\": \"\"}]"),
      (
        "deep nesting, below the general limit",
        "[\(record), " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "]"
      ),
    ]
    for (name, text) in cases {
      let general = try JSONDocumentFastPathTests.check(name, text)
      #expect(general.report.files.first?.fileError == nil, "\(name)")
    }
    // Raw bytes that are not UTF-8, inside strings the record copies and one it decodes.
    var bytes = Array("[{\"note\":\"".utf8) + [0xFF, 0xC3] + Array("\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"},\n".utf8)
    bytes += Array("{\"amount\":1,\"from\":\"US".utf8) + [0xFF] + Array("\",\"to\":\"EUR\"}]".utf8)
    try JSONDocumentFastPathTests.check("invalid UTF-8", bytes)
  }

  /// fxbatch issue 13: records spaced more widely than an annotation template holds trapped in the template;
  /// they take the general path, with the same output, in a top-level array and under `--records-path`.
  @Test(arguments: [24, 26, 40, 300])
  func jsonDocumentWideSpacingTakesTheGeneralPath(width: Int) throws {
    let spaces = String(repeating: " ", count: width)
    let tabs = String(repeating: "\t", count: width)
    let records = [
      "{\"date\":\"2024-01-05\",\(spaces)\"amount\":12.5,\(spaces)\"from\":\"USD\",\(spaces)\"to\":\"EUR\"}",
      "{\(tabs)\"date\"\(tabs):\(tabs)\"2024-01-05\"\(tabs),\(tabs)\"amount\"\(tabs):\(tabs)7\(tabs),"
        + "\(tabs)\"from\"\(tabs):"
        + "\(tabs)\"GBP\"\(tabs),\(tabs)\"to\"\(tabs):\(tabs)\"EUR\"\(tabs)}",
      "{\"date\":\"2024-01-05\",\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}",
    ]
    let array = "[\n" + records.joined(separator: ",\n") + "\n]\n"
    let general = try JSONDocumentFastPathTests.check("spacing \(width)", array)
    #expect(general.report.totals.ok == 3)
    let nested = "{\"data\": {\"items\":\(spaces)[\(spaces)" + records.joined(separator: ",\(spaces)") + "\(spaces)]}}"
    let underPath = try JSONDocumentFastPathTests.check("spacing \(width), records path", nested) { $0.recordsPath = ["data", "items"] }
    #expect(underPath.report.totals.ok == 3)
    let text = String(decoding: general.output ?? Data(), as: UTF8.self)
    #expect(text.contains(",\(spaces)\"fx_status\":\"ok\",\(spaces)\"fx_error\":\"\"}"))
  }

  /// Malformed documents: the general path's file error, at the same line and column, whatever the parts.
  @Test(arguments: [
    "", "  ", "[", "[{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}", "[1,]", "[,1]", "[1 2]", "[{\"a\":1}{\"b\":2}]",
    "[{\"a\":1,}]", "[{\"a\" 1}]", "[{\"a\":01}]", "[{\"a\":1.}]", "[{\"a\":-}]", "[{\"a\":1e}]", "[{\"a\":tru}]",
    "[{\"a\":\"x\ty\"}]", "[{\"a\":\"\\x\"}]", "[{\"a\":\"\\u12g4\"}]", "[{\"a\":\"never closed}]", "[1]x", "[1] [2]",
    "[{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"},\n{\"amount\":2,\"from\":\"USD\",\"to\":\"EUR\"}\n,\n{\"amount\":3 \"from\":\"USD\"}]",
    "{\"amount\":1}", "\"text\"", "[{\"a\":[1,2}]", "[{\"a\":{\"b\":1]}]", "[\"\u{1}\"]", "[01]", "[1}",
    String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
  ])
  func jsonDocumentMalformedDocuments(text: String) throws {
    let general = try JSONDocumentFastPathTests.check("malformed \(text.prefix(40).debugDescription)", text)
    #expect(general.report.files.first?.fileError != nil)
  }

  /// Malformed documents under `--records-path`, before, inside and after the records array.
  @Test(arguments: [
    "{\"data\": 1}", "{\"data\": {\"items\": {}}}", "{\"data\": {\"items\": []}, \"data\": 2}", "{\"other\": []}",
    "{\"data\": {\"items\": [1,]}}", "{\"data\": {\"items\": [{\"amount\":1}]}, \"after\": [1,}",
    "{\"data\": {\"items\": [{\"amount\":1}]}} x", "{\"data\": {\"items\": [{\"amount\":1}]}", "[1]",
    "{\"data\": {\"items\": [{\"amount\":1}], \"items\": []}}",
  ])
  func jsonDocumentMalformedDocumentsUnderARecordsPath(text: String) throws {
    let general = try JSONDocumentFastPathTests.check("malformed \(text.debugDescription)", text) { $0.recordsPath = ["data", "items"] }
    #expect(general.report.files.first?.fileError != nil)
  }

  /// File errors of pass 1 (an annotated document, no amount or currency field) are the general path's.
  @Test func jsonDocumentFileErrorsAreTheSame() throws {
    let record = "{\"date\":\"2024-01-05\",\"amount\":12.5,\"from\":\"USD\",\"to\":\"EUR\"}"
    let annotated =
      "{\"amount\": 1, \"from\": \"USD\", \"to\": \"EUR\", \"fx_rate\": \"1\", \"fx_converted\": \"1\", \"fx_currency\": \"EUR\", \"fx_rate_date\": \"2024-01-05\", \"fx_source\": \"x\", \"fx_status\": \"ok\", \"fx_error\": \"\"}"
    let cases: [(String, String)] = [
      ("already annotated", "[\n  [1],\n  3,\n  \(annotated),\n  \(record)\n]"),
      ("already annotated, then malformed", "[\n  \(annotated),\n  \(record),\n  01\n]"),
      ("no amount field", "[{\"sum2\":1,\"from\":\"USD\",\"to\":\"EUR\"},\n{\"x\":1,\"from\":\"USD\",\"to\":\"EUR\"}]"),
      ("amount only after the first record", "[{\"x\":1,\"from\":\"USD\",\"to\":\"EUR\"},\n\(record)]"),
      ("no to field", "[{\"amount\":1,\"from\":\"USD\"},\n  {\"amount\":2,\"from\":\"USD\"}]"),
      ("no amount field, then malformed", "[{\"x\":1,\"from\":\"USD\",\"to\":\"EUR\"},\n{]"),
      (
        "annotated after many records that are not objects",
        "[" + String(repeating: "[1],\n", count: 60) + annotated + "]"
      ),
      // U+FEFF after the file's byte order mark is a character, which JSON allows only in strings.
      ("two byte order marks", "\u{FEFF}\u{FEFF}[\(record)]"),
      ("a byte order mark before a record", "\u{FEFF}[\(record),\n\u{FEFF}\(record)]"),
    ]
    for (name, text) in cases {
      let general = try JSONDocumentFastPathTests.check(name, text)
      #expect((general.report.files.first?.fileError != nil) == (name != "amount only after the first record"), "\(name)")
    }
    let general = try JSONDocumentFastPathTests.check("annotated", "[\n  [1],\n  \(annotated)\n]")
    let error = general.report.files.first?.fileError ?? ""
    #expect(error.contains("in.json:3:3: error: the file is already annotated by fxbatch"), "\(error)")
  }

  /// The byte-level pass 1 reads the documents it follows, and leaves the others to the general path.
  @Test(arguments: [
    ("[{\"amount\":1,\"from\":\"USD\",\"to\":\"EUR\"}]", true), ("[]", true),
    (" [1, \"x\", {},\n {\"amount\": 1, \"from\": \"USD\", \"to\": \"EUR\"}] ", true),
    ("[1,]", false), ("[" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "]", false),
  ])
  func jsonDocumentFollowsWhatItCan(text: String, follows: Bool) throws {
    #expect((try JSONDocumentFastPathTests.fastScan(text)?.jsonArray != nil) == follows)
  }

  /// The reader hands out each element with the bytes before it and its line and column, then the bytes up to
  /// and including the `]` and the place after it; a part stops at its limit between two elements.
  @Test func jsonDocumentReaderPiecesAndPlaces() throws {
    let text = "{\"r\": [\n  1,\n  {\"a\": [2, \"]\"],\n   \"b\": 3} ,\"x\"\r\n]}"
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("in.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    /// The pieces of a reader: (leading bytes, element, line, column, offset).
    func pieces(_ reader: JSONArrayReader) throws -> [(String, String?, Int, Int, Int)] {
      var found: [(String, String?, Int, Int, Int)] = []
      while let piece = try reader.withNextPiece({ piece in
        (
          piece.leading.text, piece.element.map(\.text),
          piece.position.line, piece.position.column, piece.position.offset
        )
      }) { found.append(piece) }
      return found
    }
    let start = JSONArrayExtent.Position(offset: 7, line: 1, column: 8)
    let whole = try pieces(JSONArrayReader(path: path, at: start, start: .afterOpening))
    let expected: [(String, String?, Int, Int, Int)] = [
      ("\n  ", "1", 2, 3, 10), (",\n  ", "{\"a\": [2, \"]\"],\n   \"b\": 3}", 3, 3, 15), (" ,", "\"x\"", 4, 13, 43),
      ("\r\n]", nil, 5, 2, 49),
    ]
    #expect(whole.count == expected.count)
    for (got, want) in zip(whole, expected) {
      #expect(got.0 == want.0 && got.1 == want.1 && got.2 == want.2 && got.3 == want.3 && got.4 == want.4, "\(got)")
    }
    // Two parts split before the second element: together the same pieces.
    let first = try pieces(JSONArrayReader(path: path, at: start, start: .afterOpening, limit: 15))
    let second = try pieces(
      JSONArrayReader(path: path, at: JSONArrayExtent.Position(offset: 15, line: 3, column: 3), start: .atElement))
    #expect(first.map(\.1) == ["1", nil] && first.last?.0 == ",\n  " && first.last?.4 == 15)
    #expect(second.map(\.1) == expected.dropFirst().map(\.1) && second.first?.0 == "")
    #expect(second.map(\.2) == [3, 4, 5] && second.map(\.3) == [3, 13, 2])
    // A limit that is not between two elements: the part cannot be read.
    #expect(throws: JSONArrayReader.Unfollowable.self) {
      _ = try pieces(JSONArrayReader(path: path, at: start, start: .afterOpening, limit: 20))
    }
  }

  /// A value the scanner reads whole is one the general parser reads, and the other way round.
  @Test func jsonDocumentValueScannerAgreesWithTheParser() throws {
    var random = JSONDocumentFastPathTests.Random(state: 17)
    let pieces = [
      "{", "}", "[", "]", ",", ":", "\"a\"", "\"\\n\"", "\"\\u00e9\"", "\"\\x\"", "\"\u{1}\"", "1", "-0", "01", "1.5", "1.",
      "1e5", "1E+", "-", "true", "tru", "null", "false", " ", "\n", "\r\n", "\t", "\"]\"", "\"é\"", "\"\\\"\"",
    ]
    var accepted = 0
    for _ in 0..<30_000 {
      var text = ""
      for _ in 0..<(1 + random.next(10)) { text += random.pick(pieces) }
      text = text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty else { continue }
      let bytes = Array((text + " ]").utf8)
      let read = bytes.withUnsafeBufferPointer { buffer -> Bool in
        var scanner = JSONValueScanner(ByteView(buffer))
        guard let end = try? scanner.valueEnd(from: 0) else { return false }
        return scanner.skipWhitespace(from: end) == buffer.count - 1
      }
      let parsed = (try? JSONParser.parse(Array(text.utf8))) != nil
      #expect(read == parsed, "\(text.debugDescription)")
      if read { accepted += 1 }
    }
    #expect(accepted > 500)
  }

  /// The nested records as a list document's `data` array, compact or pretty-printed.
  @Test(arguments: 0..<6)
  func jsonDocumentNestedRecords(configuration: Int) throws {
    let (name, configure) = JSONNestedFastPathTests.configurations[configuration]
    for seed in UInt64(configuration * 3)..<UInt64(configuration * 3 + 3) {
      let records = JSONNestedFastPathTests.lines(150, seed: seed + 100)
      let pretty = seed % 2 == 0
      let text =
        pretty
        ? "{\n  \"object\": \"list\",\n  \"data\": [\n    " + records.joined(separator: ",\n    ")
          + "\n  ],\n  \"has_more\": false\n}\n"
        : "{\"data\":[" + records.joined(separator: ",") + "]}"
      try JSONDocumentFastPathTests.check("JSON document seed \(seed), \(name)", Array(text.utf8)) {
        configure(&$0)
        $0.recordsPath = ["data"]
      }
    }
  }
}
