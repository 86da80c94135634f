/// Why one record could not be converted: a stable code for scripts and a one-line message for people.
///
/// Row problems are values, not thrown errors: the record still gets its output row, with
/// `fx_status` = `error` and `fx_error` = `"code: message"`.
public struct RowError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The stable error codes written in `fx_error` and counted in the run report.
  public enum Code: String, CaseIterable, Sendable, Codable {
    /// A needed field (amount, from or to currency) is empty or absent.
    case missingField = "missing_field"
    /// The amount is not a number under the file's decimal mark, or its currency symbol or code is not the
    /// record's from-currency.
    case invalidAmount = "invalid_amount"
    /// The amount reads only with the decimal mark the file's other amounts do not use (`12.50` in a column
    /// whose amounts prove a decimal comma, ``DecimalMarkInference``).
    case ambiguousAmount = "ambiguous_amount"
    /// The date is not a valid calendar date in an accepted layout.
    case invalidDate = "invalid_date"
    /// The currency is not an ISO 4217 code, a symbol of one currency, or a name given with `--alias`.
    case unknownCurrency = "unknown_currency"
    /// The currency is a symbol several currencies use (`$`, `¥`, `kr`) and `--symbol` does not say which.
    case ambiguousCurrency = "ambiguous_currency"
    /// The rate source published no rate for the currency on the rate date.
    case noRate = "no_rate"
    /// The currency had ceased on the record's date and no fixed conversion to a currency in use applies
    /// (``CurrencyLifecycle``): a code ISO 4217 withdrew without a change fxbatch knows, ZWL from 2024-04-05,
    /// VEF from 2021-10-01.
    case currencyWithdrawn = "currency_withdrawn"
    /// The date is before the rate data starts, or after it ends by more than the staleness limit.
    case dateOutOfRange = "date_out_of_range"
    /// The latest publication before the date is older than the staleness limit.
    case staleRate = "stale_rate"
    /// A period rate (`--rate-kind average|closing`) of a period the rate source has not finished publishing:
    /// its rates end before the period's last calendar day (or start after its first, for an average).
    case periodIncomplete = "period_incomplete"
    /// The record has more fields than the header, so annotation columns would not line up.
    case extraFields = "extra_fields"
    /// The record itself is malformed: a JSON Lines line or a records-array element that is not a JSON object,
    /// or an object with the same member twice (or two members naming one field, as `amount` and `Amount`).
    case invalidRecord = "invalid_record"
    /// The converted amount needs more than 38 digits.
    case amountOverflow = "amount_overflow"
    /// The rate service failed (HTTP 5xx or 429 after all retries, connection refused or dropped).
    case sourceUnavailable = "source_unavailable"
    /// The rate service did not answer within `--timeout`, after all retries.
    case timeout
    /// The rate service answered with something that is not a valid answer (an error field, missing rates,
    /// truncated JSON or XML, an unexpected HTTP status).
    case badResponse = "bad_response"

    /// Whether the error is about one exchange with a source (unreachable, too slow, an unusable answer), not
    /// about the key: asking again may give a rate. A lock file does not keep such errors.
    public var isAboutTheExchange: Bool { self == .sourceUnavailable || self == .timeout || self == .badResponse }
  }

  public let code: Code
  /// One line, no newlines; echoed input is quoted.
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// `"code: message"`, as written in `fx_error`.
  public var description: String { "\(code.rawValue): \(message)" }

  /// Quotes a piece of input for a message: control characters escaped, long values shortened, so a message
  /// stays on one line and cannot be mistaken for a formula.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    var count = 0
    for scalar in text.unicodeScalars {
      count += 1
      if count > 60 {
        result += "…"
        break
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\"": result += "\\\""
      case _ where isInvisible(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Whether a character would break a line of output or hide in it: C0 and C1 controls, line and paragraph
  /// separators, invisible marks (zero-width spaces, a byte order mark) and bidirectional overrides.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x200B...0x200F).contains(scalar.value)
      || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
      || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
  }

  /// `text` with each character ``isInvisible(_:)`` finds written `\u{…}`, for text from outside (a service's
  /// currency names) printed a line at a time.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isInvisible) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isInvisible(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
