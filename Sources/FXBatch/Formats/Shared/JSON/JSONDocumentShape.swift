#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A kind of JSON document fxbatch knows by what its records say they are, read with the records and fields of
/// that kind when no option says otherwise (docs/formats.md, "Known documents"), as ``XMLDocumentShape`` reads
/// known XML documents:
///
/// | Document | Recognized by | Records | Amount (minor units) | From-currency | Date (unix seconds) |
/// | --- | --- | --- | --- | --- | --- |
/// | Stripe list | a top-level object whose `data` array's first element has `"object": "balance_transaction"` (or `charge`, `refund`, `payout`, `payment_intent`, `invoice`); its own `"object"`, where it comes before `data`, is `"list"` | `data` | ``stripeObjects`` | `currency` | `created` |
/// | Stripe objects, JSON Lines | a first line that is such an object | each line | as above | `currency` | `created` |
///
/// Every record must be of the first record's type (``RequiredMember``): a record of another is
/// `invalid_record`, never read with the wrong members.
struct JSONDocumentShape: Sendable, Equatable {
  /// The summary's name: `Stripe list of balance_transaction`, `Stripe balance_transaction objects`.
  let name: String
  /// The record type: the value of the records' `object` member.
  let objectType: String
  /// Where the records are: `["data"]` in a list; `[]` for JSON Lines (each line).
  let recordsPath: [String]
  /// The amount members: one (`fx_converted`) or several (`fx_converted_NAME`, NAME the member).
  let amounts: [String]
  let currency: String
  let date: String

  /// Stripe's objects that carry money, and their amount members (docs.stripe.com/api): the money members
  /// Stripe documents as always present integers, in the currency's smallest unit, with "currency" in lower
  /// case and "created" in unix seconds. Nullable members (an invoice's `tax`, a charge's
  /// `application_fee_amount`) are left out: a `null` amount fails its record (`missing_field`), so they are
  /// for `--amount-field` on files that have them.
  ///
  /// | Object | Amounts |
  /// | --- | --- |
  /// | `balance_transaction` | `amount`, `fee`, `net` |
  /// | `charge` | `amount`, `amount_captured`, `amount_refunded` |
  /// | `refund` | `amount` |
  /// | `payout` | `amount` |
  /// | `payment_intent` | `amount`, `amount_received` |
  /// | `invoice` | `total`, `amount_due`, `amount_paid`, `amount_remaining` |
  static let stripeObjects: [(object: String, amounts: [String])] = [
    ("balance_transaction", ["amount", "fee", "net"]), ("charge", ["amount", "amount_captured", "amount_refunded"]),
    ("refund", ["amount"]), ("payout", ["amount"]), ("payment_intent", ["amount", "amount_received"]),
    ("invoice", ["total", "amount_due", "amount_paid", "amount_remaining"]),
  ]

  /// How much of a file's head recognition reads.
  static let headSize = 64 << 10

  private static func stripe(object: String, list: Bool) -> JSONDocumentShape? {
    guard let amounts = stripeObjects.first(where: { $0.object == object })?.amounts else { return nil }
    return JSONDocumentShape(
      name: list ? "Stripe list of \(object)" : "Stripe \(object) objects", objectType: object,
      recordsPath: list ? ["data"] : [], amounts: amounts, currency: "currency", date: "created")
  }

  /// The shape of a JSON document (`lines: false`) or JSON Lines file, from its first ``headSize`` bytes: the
  /// top-level object's members up to its `data` array's first element, or the first line; `nil` for a file
  /// fxbatch does not know.
  static func recognize(path: String, lines: Bool) -> JSONDocumentShape? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var head = [UInt8](repeating: 0, count: headSize)
    let count = FileBytes.read(from: descriptor, into: &head, fileOffset: 0)
    close(descriptor)
    guard count > 0 else { return nil }
    head.removeSubrange(count...)
    return recognize(head: head, lines: lines)
  }

  /// ``recognize(path:lines:)`` of a file's first bytes.
  static func recognize(head: [UInt8], lines: Bool) -> JSONDocumentShape? {
    var index = 0
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    if lines {
      // The first line that is not blank, whole.
      while index < head.count, isSpace(head[index]) { index += 1 }
      guard let end = head[index...].firstIndex(of: 0x0A) ?? (head.count < headSize ? head.count : nil),
        case .object(let members)? = try? JSONParser.parse(Array(head[index..<end]), startsFile: false)
      else { return nil }
      return recordType(of: members).flatMap { stripe(object: $0, list: false) }
    }
    var scanner = Scanner(bytes: head, index: index)
    guard scanner.skipSpace() == UInt8(ascii: "{") else { return nil }
    scanner.index += 1
    var listObject: String? = nil
    while true {
      guard scanner.skipSpace() == UInt8(ascii: "\""), let keyEnd = scanner.endOfValue(),
        case .string(let key)? = try? JSONParser.parse(Array(head[scanner.index..<keyEnd]), startsFile: false)
      else { return nil }
      scanner.index = keyEnd
      guard scanner.skipSpace() == UInt8(ascii: ":") else { return nil }
      scanner.index += 1
      guard scanner.skipSpace() != nil else { return nil }
      if key == "data" {
        guard head[scanner.index] == UInt8(ascii: "[") else { return nil }
        scanner.index += 1
        guard scanner.skipSpace() == UInt8(ascii: "{"), let end = scanner.endOfValue(),
          case .object(let members)? = try? JSONParser.parse(Array(head[scanner.index..<end]), startsFile: false),
          listObject == nil || listObject == "list"
        else { return nil }
        return recordType(of: members).flatMap { stripe(object: $0, list: true) }
      }
      guard let end = scanner.endOfValue() else { return nil }
      if key == "object" {
        guard case .string(let value)? = try? JSONParser.parse(Array(head[scanner.index..<end]), startsFile: false) else {
          return nil
        }
        listObject = value
      }
      scanner.index = end
      guard scanner.skipSpace() == UInt8(ascii: ",") else { return nil }
      scanner.index += 1
    }
  }

  /// The `object` member of a record, when it is one string.
  private static func recordType(of members: [(key: String, value: JSONValue)]) -> String? {
    let found = members.filter { $0.key == "object" }
    guard found.count == 1 else { return nil }
    return found[0].value.stringValue
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  /// Steps over the values of a JSON text's head: where each ends, strings and nesting minded.
  private struct Scanner {
    let bytes: [UInt8]
    var index: Int

    /// Skips white space; the byte then, `nil` at the end of the head.
    mutating func skipSpace() -> UInt8? {
      while index < bytes.count, JSONDocumentShape.isSpace(bytes[index]) { index += 1 }
      return index < bytes.count ? bytes[index] : nil
    }

    /// Where the value at ``index`` ends; `nil` when it does not end within the head.
    func endOfValue() -> Int? {
      var at = index
      var depth = 0
      while at < bytes.count {
        switch bytes[at] {
        case UInt8(ascii: "\""):
          at += 1
          while at < bytes.count, bytes[at] != UInt8(ascii: "\"") { at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1 }
          guard at < bytes.count else { return nil }
          if depth == 0 { return at + 1 }
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return at + 1 }
          if depth < 0 { return at }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
          if depth == 0 { return at }
        default: break
        }
        at += 1
      }
      return nil
    }
  }

  /// The run's options for a file of this shape: each choice the options leave open is the shape's — the
  /// records path, the amount (in minor units unless `--amount-unit` is given), the from-currency (unless
  /// `--from` or `--from-field`), the date (`created`, as unix seconds unless `--date-format` is given) — and
  /// every record must be of the shape's type. A `--records-path` elsewhere leaves the file to the options
  /// alone (`nil`). `--amount-field` replaces the shape's whole list of amounts.
  ///
  /// - Returns: the options and what the shape chose, for the summary (`recognized Stripe list of
  ///   balance_transaction: amounts amount, fee, net, amounts in minor units, from-currency currency, date
  ///   created (unix seconds)`).
  func apply(to options: BatchOptions) -> (options: BatchOptions, description: String)? {
    if !options.recordsPath.isEmpty, options.recordsPath != recordsPath { return nil }
    var shaped = options
    shaped.recordsPath = recordsPath
    shaped.requiredMember = RequiredMember(name: "object", value: objectType, document: name)
    var chose: [String] = []
    if options.fieldNames.amount == nil {
      let names = options.fieldNames
      shaped.fieldNames = FieldNames(
        amounts: amounts.map { AmountField(path: $0) }, from: names.from, to: names.to, date: names.date)
      chose.append((amounts.count == 1 ? "amount " : "amounts ") + amounts.joined(separator: ", "))
    }
    if !options.amountUnitIsGiven {
      shaped.amountUnit = .minor
      chose.append("amounts in minor units")
    }
    if options.fixedFrom == nil, options.fieldNames.from == nil {
      shaped.fieldNames.from = currency
      chose.append("from-currency \(currency)")
    }
    if options.fieldNames.date == nil {
      shaped.fieldNames.date = date
      if !options.dateFormatIsGiven { shaped.dateFormat = .unixSeconds }
      chose.append("date \(date)" + (shaped.dateFormat == .unixSeconds ? " (unix seconds)" : ""))
    }
    return (shaped, "recognized \(name)" + (chose.isEmpty ? "" : ": " + chose.joined(separator: ", ")))
  }

  /// A file's shape applied to a context (``apply(to:)``); the context unchanged, without a description, for a
  /// file fxbatch does not know or options that leave it out.
  static func shaped(_ context: FormatContext, readPath: String, lines: Bool) -> (
    context: FormatContext, document: (description: String, recordsPath: [String])?
  ) {
    guard let shape = recognize(path: readPath, lines: lines), let applied = shape.apply(to: context.options) else {
      return (context, nil)
    }
    return (context.with(options: applied.options), (applied.description, shape.recordsPath))
  }
}
