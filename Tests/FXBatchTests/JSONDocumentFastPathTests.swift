import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// JSON documents for the byte-level path's differential cases (`FastGeneralDifferentialTests+JSONDocumentCases.swift`):
/// records and documents in every layout, tricky strings, the byte-level pass 1 (``fastScan(_:parts:configure:)``),
/// and the check they run
/// (``FastGeneralDifferentialTests/checkInParts(_:_:format:fileName:rates:partFiles:sourceLocation:configure:)``).
enum JSONDocumentFastPathTests {
  typealias Random = JSONLinesFastPathTests.Random
  typealias Outcome = CSVFastPathAdversarialTests.Outcome

  /// Part files of this process left in the temporary directory.
  static func leftoverPartFiles() -> [String] {
    let prefix = "fxbatch-json-part-\(getpid())-"
    return ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter { $0.hasPrefix(prefix) }
  }

  /// ``FastGeneralDifferentialTests/checkInParts(_:_:format:fileName:rates:partFiles:sourceLocation:configure:)``
  /// on a JSON document.
  ///
  /// - Returns: the general path's outcome (its report without output paths).
  @discardableResult
  static func check(
    _ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Outcome {
    let general = try FastGeneralDifferentialTests.checkInParts(
      name, bytes, format: .json, fileName: "in.json", partFiles: leftoverPartFiles, sourceLocation: sourceLocation,
      configure: configure
    ).general
    return Outcome(output: general.output.first.map { Data($0) }, report: general.report)
  }

  @discardableResult
  static func check(
    _ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Outcome {
    try check(name, Array(text.utf8), sourceLocation: sourceLocation, configure: configure)
  }

  /// Pass 1 of the byte-level path on a document: its scan, or `nil` when it leaves the document to the
  /// general path.
  static func fastScan(_ text: String, parts: Int = 1, configure: (inout BatchOptions) -> Void = { _ in }) throws
    -> FileScan?
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("in.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
    var options = BatchOptions(today: try day("2026-11-29"))
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    configure(&options)
    let job = BatchJob(options: options, rates: EmbeddedECBHistory.table)
    return try JSONFormat.scanJSONDocumentFile(
      displayPath: input, readPath: input, outputPath: nil, context: job.formatContext)?.0
  }

  /// Strings that look like the structure around records: brackets, commas and braces, escaped quotes,
  /// escaped line breaks, unicode escapes.
  static let trickyStrings = [
    "\"a],[{b\"", "\"},\\n{\"", "\"}, {\\\"amount\\\": 1}\"", "\"line\\nbreak\\r\\n\"", "\"q\\\"]\"", "\"\\\\\"", "\"\\u005d\"",
    "\"[\"", "\"]\"", "\"{\"", "\"}\"", "\",\"", "\"é ü 😀\"", "\"\\/\"",
  ]

  /// Values of members that are not the record's fields.
  static let otherValues =
    JSONLinesFastPathTests.notes.filter { !$0.contains("\t") } + trickyStrings + [
      "{\"tags\":[\"x\",\"]\"],\"n\":{\"m\":null}}", "[[],{}]", "[\n  1,\n  2\n]", "-0.5e+3", "false",
    ]

  /// One record: mostly objects with the fields (varying values, order, names, doubled and annotation
  /// members), spaced in one of several ways; sometimes a value that is not a record object.
  static func record(_ random: inout Random, index: Int, indent: String, newline: String) -> String {
    if random.next(25) == 0 {
      return random.pick([
        "3", "\"text\"", "null", "true", "[1,\"],[\"]", "{}", "[]", "-0.5e3", "{\"amount\":{\"v\":1}}", "{ }", "{\(newline)}",
        "\"{\\\"amount\\\":1,\\\"from\\\":\\\"USD\\\",\\\"to\\\":\\\"EUR\\\"}\"",
      ])
    }
    var members: [(String, String)] = [
      ("id", "\(index)"), ("date", random.pick(JSONLinesFastPathTests.dates)),
      ("amount", random.pick(JSONLinesFastPathTests.amounts)), ("from", random.pick(JSONLinesFastPathTests.currencies)),
      (
        "to",
        random.next(3) == 0
          ? random.pick(JSONLinesFastPathTests.currencies) : random.pick(["\"EUR\"", "\"USD\"", "\"JPY\"", "\"GBP\""])
      ),
    ]
    if random.next(3) == 0 { members.append((random.pick(["note", "meta", "tags"]), random.pick(otherValues))) }
    switch random.next(25) {
    case 0: members.removeAll { $0.0 == "date" }
    case 1: members.removeAll { $0.0 == "amount" }
    case 2: members.removeAll { $0.0 == "to" }
    case 3: members.append(("Amount", "5"))  // two members name the amount field
    case 4: members.append(("from", "\"GBP\""))  // a member twice
    case 5: members.append(("fx_status", "\"ok\""))
    case 6: members[2].0 = "value"
    case 7: members[2].0 = "am\\u006fount"
    case 8: members = [members[2]]
    default: break
    }
    if random.next(4) == 0 {
      for position in members.indices.reversed() where position > 0 { members.swapAt(position, random.next(position + 1)) }
    }
    switch random.next(6) {
    case 0, 1:  // pretty: one member per line, as `json.dump(indent=…)` writes them
      let inner = indent + random.pick(["  ", "    ", "\t"])
      let body = members.map { "\(inner)\"\($0.0)\": \($0.1)" }.joined(separator: ",\(newline)")
      return "{\(newline)\(body)\(newline)\(indent)}"
    case 2:  // as `json.dumps` writes them
      return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    case 3:  // odd whitespace
      let colon = random.pick([" : ", ":\t", "\r\n:", ":\n  "])
      let comma = random.pick([" ,", ",\n", " ,\r\n  ", ",\t"])
      return random.pick(["{ ", "{\n", "{"]) + members.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma)
        + random.pick([" }", "\n}", "}", "\r\n  }"])
    default:
      return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
  }

  /// How a document places its records.
  enum Layout: CaseIterable {
    /// `[{…},\n{…}]`: one record per line, the common export shape.
    case perLine
    /// `json.dump(indent=2)`: records indented, each member on its line.
    case pretty
    /// `[{…},{…}]` on one line.
    case compact
    /// Any whitespace between records.
    case messy
  }

  /// A document of `records` records: a byte order mark or not, LF or CRLF, text before and after the array.
  static func document(records: Int, seed: UInt64, layout: Layout, recordsPath: Bool = false) -> String {
    var random = Random(state: seed)
    let newline = random.next(3) == 0 ? "\r\n" : "\n"
    let indent = layout == .pretty ? (recordsPath ? "      " : "  ") : ""
    var items: [String] = []
    for index in 0..<records { items.append(record(&random, index: index, indent: indent, newline: newline)) }
    var array: String
    switch layout {
    case .perLine: array = "[" + items.joined(separator: ",\(newline)") + "]"
    case .pretty:
      array = "[\(newline)\(indent)" + items.joined(separator: ",\(newline)\(indent)") + "\(newline)\(indent.dropLast(2))]"
    case .compact: array = "[" + items.joined(separator: ",") + "]"
    case .messy:
      array = random.pick(["[", "[ ", "[\n", "[\r\n\t"])
      for (index, item) in items.enumerated() {
        if index > 0 { array += random.pick([",", ", ", " ,", "\n,\n", ",\r\n", " , \t"]) }
        array += item
      }
      array += random.pick(["]", " ]", "\n]", "\r\n  ]"])
    }
    if records == 0 { array = random.pick(["[]", "[ ]", "[\n]"]) }
    var text = random.next(5) == 0 ? "\u{FEFF}" : ""
    text += random.pick(["", " ", newline, "\t\(newline)"])
    if recordsPath {
      text +=
        "{\"meta\": {\"note\": \"[not, the ]records\", \"n\": [1, {\"x\": \"]\"}]},\(newline)  \"data\": {\"count\": \(records), \"items\": \(array)},\(newline)  \"after\": [\"]\", {\"items\": []}]}"
    } else {
      text += array
    }
    text += random.pick(["", newline, " \(newline)\(newline)"])
    return text
  }

  /// Seeded random documents in every layout and option set, in one pass and in parts.
}
