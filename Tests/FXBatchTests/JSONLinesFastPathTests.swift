import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// JSON Lines records for the fast path's differential cases (`FastGeneralDifferentialTests+JSONLinesCases.swift`)
/// and the JSON document suite: messy lines, the option sets, and the check they run
/// (``FastGeneralDifferentialTests/checkInParts(_:_:format:fileName:rates:partFiles:sourceLocation:configure:)``).
enum JSONLinesFastPathTests {
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

  /// ``FastGeneralDifferentialTests/checkInParts(_:_:format:fileName:rates:partFiles:sourceLocation:configure:)``
  /// on a JSON Lines file.
  @discardableResult
  static func check(
    _ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Bool {
    try FastGeneralDifferentialTests.checkInParts(
      name, bytes, format: .jsonl, fileName: "in.jsonl", partFiles: leftoverPartFiles, sourceLocation: sourceLocation,
      configure: configure
    ).same
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
}
