/// Reads an amount cell's text into an exact decimal under the file's decimal mark: the one amount parser of
/// fxbatch (fxbatch issue 6, "Amounts").
///
/// Accepted shapes (see ``AmountCell`` for signs and currency marks):
/// - a decimal point or a decimal comma, whichever is the column's ``decimalMark``, at most once;
/// - digits grouped by `,` `.` `'` space, U+00A0 or U+202F — the one that is not the decimal mark, the same
///   separator throughout the integer part, in groups of three (`1,234,567.89`, `1.234.567,89`, `1 234,56`,
///   `1'234.50`) or in Indian groups (`12,34,567.89`: three digits last, two before);
/// - a sign, accounting parentheses, a currency symbol or ISO code (`($30.00)`, `12.50-`, `−5`, `1.200,00 €`,
///   `USD 5`), where the symbol or code must name the record's from-currency (``CurrencyResolver``).
///
/// Everything else is refused with the reason — letters, two decimal marks, two signs, groups that are not
/// groups of three, a separator after the decimal mark — and never read as a numeric prefix the way
/// Foundation's `Decimal(string:)` does (`"1,234.56"` → 1, `"123.45-"` → +123.45).
public struct AmountParser: Sendable {
  /// The decimal mark of the column; `nil` when nothing in the file settles it, so that only cells that read
  /// the same with either mark (`12`, `1 234`) are accepted.
  public let decimalMark: DecimalMark?
  /// Whether the file's amounts decided ``decimalMark`` (``DecimalMarkInference``, by `.amounts`): then a cell
  /// that reads only with the other mark contradicts most of them and is `ambiguous_amount`, naming both
  /// readings (fxbatch issue 13). A mark given with `--decimal-separator` is not evidence against a cell: such a
  /// cell is simply not a number, `invalid_amount`.
  public let decidedByAmounts: Bool
  /// What a currency mark in a cell names.
  public let currencies: CurrencyResolver

  public init(decimalMark: DecimalMark?, decidedByAmounts: Bool = false, currencies: CurrencyResolver = CurrencyResolver()) {
    self.decimalMark = decimalMark
    self.decidedByAmounts = decidedByAmounts
    self.currencies = currencies
  }

  /// Why a cell's text is not an amount under a decimal mark.
  enum Problem: Error, Equatable {
    case notANumber
    case twoSigns
    case unmatchedParenthesis
    case twoCurrencyMarks
    /// The decimal mark occurs more than once.
    case twoDecimalMarks
    /// A separator follows the decimal mark (`1,234.56` with a decimal comma).
    case separatorAfterMark(Unicode.Scalar)
    /// The integer part mixes group separators (`1.234 567`).
    case mixedSeparators
    /// The groups are neither groups of three nor Indian groups (`12,50` with a decimal point).
    case grouping(Unicode.Scalar)
    /// More than ``ExactDecimal/maximumDigits`` digits.
    case tooManyDigits
  }

  /// Parses one amount cell.
  ///
  /// - Parameters:
  ///   - text: the cell's text.
  ///   - currency: the record's from-currency, which a currency mark in the cell must name; `nil` when the
  ///     record has none.
  /// - Returns: the exact amount, or a ``RowError``: `missing_field` (empty), `invalid_amount`, or
  ///   `unknown_currency` (a currency mark such as `RMB` that is not an ISO code).
  public func parse(_ text: String, currency: CurrencyCode? = nil) -> Result<ExactDecimal, RowError> {
    let trimmed = text.trimmingWhitespace
    guard !trimmed.isEmpty else { return .failure(RowError(.missingField, "the amount is empty")) }
    if let value = Self.plainValue(trimmed, decimalMark: decimalMark) { return .success(value) }
    let cell: AmountCell
    switch AmountCell.split(trimmed) {
    case .success(let found): cell = found
    case .failure(let problem): return .failure(error(problem, cell: trimmed, mark: decimalMark))
    }
    let value: ExactDecimal
    if let decimalMark {
      switch Self.value(of: cell, decimalMark: decimalMark) {
      case .success(let found): value = found
      case .failure(let problem):
        if decidedByAmounts, case .success(let other) = Self.value(of: cell, decimalMark: decimalMark.other) {
          return .failure(contradiction(problem, cell: trimmed, mark: decimalMark, otherValue: other))
        }
        return .failure(error(problem, cell: trimmed, mark: decimalMark))
      }
    } else {
      switch (Self.value(of: cell, decimalMark: .point), Self.value(of: cell, decimalMark: .comma)) {
      case (.success(let point), .success(let comma)) where point == comma: value = point
      case (.success(let point), .success(let comma)):
        return .failure(
          RowError(
            .invalidAmount,
            "\(RowError.quoted(trimmed)) is \(point) with a decimal point but \(comma) with a decimal comma, and no amount in the file shows which it uses; give --decimal-separator"
          ))
      case (.success, .failure), (.failure, .success):
        return .failure(
          RowError(
            .invalidAmount,
            "\(RowError.quoted(trimmed)) reads with only one decimal mark, and the file's amounts do not settle which it uses; give --decimal-separator"
          ))
      case (.failure(let problem), .failure):
        return .failure(error(problem, cell: trimmed, mark: nil))
      }
    }
    if let mark = cell.currencyMark, let error = currencies.check(mark: mark, cell: trimmed, currency: currency) {
      return .failure(error)
    }
    return .success(value)
  }

  /// The value of a plain cell (`12`, `-12.50`, `+0,5`: ASCII digits, an optional leading sign, at most one
  /// decimal mark), without taking the cell apart: the common case, kept fast for big files.
  static func plainValue(_ text: String, decimalMark: DecimalMark?) -> ExactDecimal? {
    var bytes = Array(text.utf8)
    let mark = decimalMark?.byte
    var marks = 0
    for (index, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
      case UInt8(ascii: "+") where index == 0, UInt8(ascii: "-") where index == 0: continue
      case mark:
        marks += 1
        bytes[index] = UInt8(ascii: ".")
      default: return nil
      }
    }
    return marks <= 1 ? ExactDecimal(plainUTF8: bytes) : nil
  }

  /// The value of a cell's number under a decimal mark, with the cell's sign.
  static func value(of cell: AmountCell, decimalMark: DecimalMark) -> Result<ExactDecimal, Problem> {
    let markScalar: Unicode.Scalar = decimalMark == .point ? "." : ","
    let number = cell.number
    let markIndices = number.indices.filter { number[$0] == markScalar }
    guard markIndices.count <= 1 else { return .failure(.twoDecimalMarks) }
    let integer = markIndices.first.map { number[..<$0] } ?? number[...]
    let fraction = markIndices.first.map { number[($0 + 1)...] } ?? []
    if let separator = fraction.first(where: { !AmountCell.isDigit($0) }) { return .failure(.separatorAfterMark(separator)) }
    var separators = Set(integer.filter { !AmountCell.isDigit($0) })
    guard separators.count <= 1 else { return .failure(.mixedSeparators) }
    if let separator = separators.popFirst() {
      let groups = integer.split(separator: separator, omittingEmptySubsequences: false).map(\.count)
      guard let first = integer.first, first != "0", isGrouped(groups) else { return .failure(.grouping(separator)) }
    }
    var plain: [UInt8] = cell.isNegative ? [UInt8(ascii: "-")] : []
    plain += integer.filter(AmountCell.isDigit).map { UInt8($0.value) }
    if !markIndices.isEmpty { plain.append(UInt8(ascii: ".")) }
    plain += fraction.map { UInt8($0.value) }
    guard let value = ExactDecimal(plainUTF8: plain) else { return .failure(.tooManyDigits) }
    return .success(value)
  }

  /// Whether group sizes (most significant first) are groups of three (`1,234,567`) or Indian groups
  /// (`12,34,567`: three last, two before, one or two first).
  static func isGrouped(_ sizes: [Int]) -> Bool {
    guard sizes.count >= 2, let first = sizes.first, let last = sizes.last, (1...3).contains(first), last == 3 else {
      return false
    }
    let middle = sizes.dropFirst().dropLast()
    return middle.allSatisfy { $0 == 3 } || (first <= 2 && middle.allSatisfy { $0 == 2 })
  }

  /// The `ambiguous_amount` error of a cell that reads only with the other mark than the one the file's
  /// amounts decided: both readings, the other mark's value and why the file's mark does not read it.
  private func contradiction(_ problem: Problem, cell: String, mark: DecimalMark, otherValue: ExactDecimal) -> RowError {
    let why: String
    switch problem {
    case .twoDecimalMarks: why = "more than one \(mark.name)"
    case .separatorAfterMark(let separator): why = "\(Self.name(separator)) follows the \(mark == .point ? "point" : "comma")"
    case .grouping(let separator): why = "\(Self.name(separator)) must group digits in threes"
    case .mixedSeparators: why = "mixed digit group separators"
    case .tooManyDigits: why = "more than \(ExactDecimal.maximumDigits) digits"
    case .notANumber, .twoSigns, .unmatchedParenthesis, .twoCurrencyMarks: why = "not a number"
    }
    return RowError(
      .ambiguousAmount,
      "\(RowError.quoted(cell)) is \(otherValue) with a \(mark.other.name), but most amounts in the file show a \(mark.name), with which it is not a number (\(why))"
    )
  }

  /// The row error for a problem, naming the cell and the decimal mark it was read with.
  private func error(_ problem: Problem, cell: String, mark: DecimalMark?) -> RowError {
    let quoted = RowError.quoted(cell)
    let message: String
    switch (problem, mark?.name) {
    case (.notANumber, _): message = "\(quoted) is not a number"
    case (.twoSigns, _): message = "\(quoted) has two signs (a minus sign or parentheses, not both)"
    case (.unmatchedParenthesis, _): message = "\(quoted) has an unmatched parenthesis"
    case (.twoCurrencyMarks, _): message = "\(quoted) has more than one currency symbol or code"
    case (.tooManyDigits, _): message = "\(quoted) has more than \(ExactDecimal.maximumDigits) digits"
    case (.mixedSeparators, _): message = "\(quoted) mixes digit group separators"
    case (.twoDecimalMarks, let markName?): message = "\(quoted) has more than one \(markName), the file's decimal mark"
    case (.separatorAfterMark(let separator), let markName?):
      message = "\(quoted) does not read with a \(markName), the file's decimal mark: \(Self.name(separator)) follows it"
    case (.grouping(let separator), let markName?):
      message =
        "\(quoted) does not read with a \(markName), the file's decimal mark: \(Self.name(separator)) must group digits in threes"
    case (.twoDecimalMarks, nil), (.separatorAfterMark, nil), (.grouping, nil): message = "\(quoted) is not a number"
    }
    return RowError(.invalidAmount, message)
  }

  /// A separator's name for messages: `","`, `"'"`, `a space`.
  private static func name(_ separator: Unicode.Scalar) -> String {
    switch separator {
    case " ": return "a space"
    case "\u{00A0}": return "a no-break space"
    case "\u{202F}": return "a narrow no-break space"
    default: return "\"\(separator)\""
    }
  }
}
