/// One answer of Google's retired calculator endpoint (`GET /ig/calculator?hl=en&q=1USD=?INR`), or of a
/// service that mimics it: `{lhs: "1 U.S. dollar",rhs: "54.836587 Indian rupees",error: "",icc: true}`.
///
/// The body is repaired JSON (``RepairedJSON``); `lhs` and `rhs` are quantities with unit names
/// (``CalculatorQuantity``), `error` is empty or the service's error code (`"4"`: unknown unit), `icc` says
/// whether the answer is a currency conversion.
public struct CalculatorAnswer: Sendable, Equatable {
  /// The quantity asked for, e.g. `"1 U.S. dollar"`.
  public let lhs: String
  /// The answer, e.g. `"54.836587 Indian rupees"`.
  public let rhs: String
  /// The service's error code; empty when there is none.
  public let error: String
  /// Whether the service calls this a currency conversion; `nil` when the body does not say.
  public let icc: Bool?

  public init(lhs: String, rhs: String, error: String = "", icc: Bool? = true) {
    self.lhs = lhs
    self.rhs = rhs
    self.error = error
    self.icc = icc
  }

  /// The largest answer body read.
  static let maximumBodySize = 64 << 10

  /// Reads an answer body.
  ///
  /// - Parameter body: the HTTP response body, UTF-8 or Latin-1.
  /// - Returns: the answer, or a `bad_response` error when the body is not repaired JSON (with the place), is
  ///   not an object, lacks `lhs` or `rhs`, has a member twice or a member of the wrong type. Extra members are
  ///   ignored. A missing `error` is empty.
  public static func parse(_ body: [UInt8]) -> Result<CalculatorAnswer, RowError> {
    // An answer is about 100 bytes; a large one (a JSON tree costs many times its text) is refused unread.
    guard body.count <= maximumBodySize else {
      return .failure(
        RowError(
          .badResponse, "calculator: the answer is \(body.count) bytes, more than any calculator answer (\(maximumBodySize))"))
    }
    let value: JSONValue
    do {
      value = try RepairedJSON.parse(body)
    } catch {
      return .failure(RowError(.badResponse, "calculator: \(error)"))
    }
    guard case .object(let members) = value else {
      return .failure(RowError(.badResponse, "calculator: the answer is not an object"))
    }
    do {
      return .success(try CalculatorAnswer(members: members))
    } catch {
      return .failure(error)
    }
  }

  private init(members: [(key: String, value: JSONValue)]) throws(RowError) {
    func member(_ name: String) throws(RowError) -> JSONValue? {
      let values = members.filter { $0.key == name }.map(\.value)
      guard values.count <= 1 else { throw RowError(.badResponse, "calculator: '\(name)' appears twice") }
      return values.first
    }
    func string(_ name: String) throws(RowError) -> String? {
      switch try member(name) {
      case .string(let text)?: return text
      case nil: return nil
      case _?: throw RowError(.badResponse, "calculator: '\(name)' is not a string")
      }
    }
    guard let lhs = try string("lhs") else { throw RowError(.badResponse, "calculator: the answer has no 'lhs'") }
    guard let rhs = try string("rhs") else { throw RowError(.badResponse, "calculator: the answer has no 'rhs'") }
    let error = try string("error") ?? ""
    switch try member("icc") {
    case nil: self.init(lhs: lhs, rhs: rhs, error: error, icc: nil)
    case .bool(let flag)?: self.init(lhs: lhs, rhs: rhs, error: error, icc: flag)
    case _?: throw RowError(.badResponse, "calculator: 'icc' is not true or false")
    }
  }

  /// The exchange rate the answer gives: `rhs ÷ lhs`, exactly, in rhs-currency units per unit of the lhs
  /// currency. The unit names are not checked here (``CalculatorProvider`` checks them against the request).
  ///
  /// - Returns: the rate, or
  ///   - `no_rate` quoting the service's error when `error` is not empty (`"4"`: unknown unit);
  ///   - `bad_response` when `icc` is false (not a currency conversion), `lhs` or `rhs` is empty, a quantity
  ///     cannot be read as a number (see ``CalculatorQuantity``) or is zero.
  public func rate() -> Result<ExchangeRate, RowError> {
    if !error.isEmpty {
      let meaning = error == "4" ? " (unknown unit)" : ""
      return .failure(RowError(.noRate, "calculator error \(Self.quoted(error))\(meaning)"))
    }
    if icc == false { return .failure(RowError(.badResponse, "calculator: not a currency conversion (icc false)")) }
    return quantity(lhs, named: "lhs").flatMap { base in
      quantity(rhs, named: "rhs").map { quote in ExchangeRate(numerator: quote.value, denominator: base.value) }
    }
  }

  private func quantity(_ text: String, named name: String) -> Result<CalculatorQuantity, RowError> {
    guard !text.isEmpty else { return .failure(RowError(.badResponse, "calculator: empty \(name)")) }
    guard let quantity = CalculatorQuantity(reading: text) else {
      return .failure(RowError(.badResponse, "calculator: cannot read \(Self.quoted(text)) as a number"))
    }
    guard !quantity.value.isZero else {
      return .failure(RowError(.badResponse, "calculator: \(name) \(Self.quoted(text)) is zero"))
    }
    return .success(quantity)
  }

  /// ``RowError/quoted(_:)`` with C1 control characters (U+0080 ... U+009F, among them U+0085, a line break
  /// to some readers) also escaped, so a control character shows as `\u{85}` and the message stays one line.
  static func quoted(_ text: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in RowError.quoted(text).unicodeScalars {
      if (0x80...0x9F).contains(scalar.value) {
        escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }
}
