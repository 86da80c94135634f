import Foundation

/// Which records are summary rows, copied as they are and counted as `skipped`, never converted: a record whose
/// first non-empty field (``RecordFields/label``) is a total label (`Total`, `Summe`, `Total général`, …) and
/// whose from-currency, to-currency or date is missing (on by default, `--no-skip-totals` turns it off), and a
/// record whose first non-empty field matches `--skip-rows-matching REGEX`.
///
/// A record labelled `Total` that has its currencies and its date is data: it converts.
public struct RowSkipRule: Sendable {
  /// Whether total rows are skipped (the built-in labels).
  public let skipsTotals: Bool
  /// `--skip-rows-matching`: records whose first non-empty field it matches (anywhere in it, unless anchored).
  public let pattern: NSRegularExpression?

  /// - Parameters:
  ///   - skipsTotals: see ``skipsTotals``.
  ///   - pattern: see ``pattern``.
  public init(skipsTotals: Bool = true, pattern: NSRegularExpression? = nil) {
    self.skipsTotals = skipsTotals
    self.pattern = pattern
  }

  /// No record is skipped.
  public static let none = RowSkipRule(skipsTotals: false)

  /// The rule with `--skip-rows-matching` `expression`.
  ///
  /// - Throws: the regular expression's error message when `expression` is no valid one (a usage error).
  public static func pattern(_ expression: String) throws(RowSkipRuleError) -> NSRegularExpression {
    do {
      return try NSRegularExpression(pattern: expression)
    } catch {
      throw RowSkipRuleError(expression: expression)
    }
  }

  /// Whether a record the fast path has read (its currencies found) must go to the general rules to be judged:
  /// always under `--skip-rows-matching`, and a record without a date under the total rule.
  @inline(__always)
  func needsGeneralRules(usedDefaultDay: Bool) -> Bool {
    pattern != nil || (skipsTotals && usedDefaultDay)
  }

  /// Whether the rule may skip a record whose first non-empty field is `label`, whatever its other fields: it
  /// matches ``pattern``, or it is a total label. `false` lets the fast path convert the record.
  func mayskip(label: String) -> Bool {
    // Undecided too: the general rules make it the record's error.
    if pattern != nil, patternMatch(label) != .noMatch { return true }
    guard skipsTotals else { return false }
    // Most labels start with a letter no total label starts with: the folding is not needed for them.
    if let first = label.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }), first < 0x80,
      !Self.firstLetters.contains(first | 0x20)
    {
      return false
    }
    return Self.totalLabels.contains(Self.normalized(label))
  }

  /// The first letters of the total labels, lowercase ASCII.
  private static let firstLetters: Set<UInt8> = Set(totalLabels.compactMap(\.utf8.first))

  /// Whether the rule skips a record.
  ///
  /// - Parameters:
  ///   - fields: the record's fields, ``RecordFields/label`` its first non-empty field.
  ///   - fixedFrom: `--from` (then the record needs no from-currency field); `fixedTo`: `--to`.
  public func skips(_ fields: RecordFields, fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?) -> Bool {
    (try? decision(fields, fixedFrom: fixedFrom, fixedTo: fixedTo).get()) ?? false
  }

  /// Whether the rule skips a record (``skips(_:fixedFrom:fixedTo:)``), or the record's `invalid_record` error
  /// when ``pattern`` could not decide on its label within ``matchTimeLimit`` (a pattern that backtracks
  /// without end, such as `(a+)+$`): such a record is neither skipped nor converted silently.
  public func decision(
    _ fields: RecordFields, fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?
  ) -> Result<Bool, RowError> {
    guard let label = fields.label else { return .success(false) }
    if let pattern {
      switch patternMatch(label) {
      case .matches: return .success(true)
      case .noMatch: break
      case .undecided:
        return .failure(
          RowError(
            .invalidRecord,
            "--skip-rows-matching \(RowError.quoted(pattern.pattern)) did not finish matching \(RowError.quoted(label)) "
              + "within \(Self.matchTimeLimitText) (it backtracks too much): the record is neither skipped nor converted; "
              + "simplify the expression"))
      }
    }
    guard skipsTotals, Self.totalLabels.contains(Self.normalized(label)) else { return .success(false) }
    func missing(_ value: RecordFields.Value) -> Bool {
      switch value {
      case .text(let text): return text.trimmingWhitespace.isEmpty
      case .null, .absent: return true
      case .number, .other: return false
      }
    }
    // Several amounts: a money object's own currency stands for the from-currency field.
    let fromMissing = missing(fields.from) && fields.amounts.allSatisfy { missing($0.from) }
    return .success(
      (fixedFrom == nil && fromMissing) || (fixedTo == nil && missing(fields.to)) || missing(fields.date))
  }

  /// How long ``pattern`` may try one label before the record is its error: ICU's backtracking matcher takes
  /// exponential time on some expressions (`(a+)+$` on 40 `a`s and a `!` runs for hours).
  static let matchTimeLimit: Duration = .milliseconds(200)
  static let matchTimeLimitText = "0.2 s"

  /// What ``pattern`` says of a label.
  enum PatternMatch: Equatable { case matches, noMatch, undecided }

  /// Whether ``pattern`` matches `label` anywhere, or ``PatternMatch/undecided`` when it takes longer than
  /// ``matchTimeLimit`` (ICU reports its progress while it matches, and stops when told to).
  func patternMatch(_ label: String) -> PatternMatch {
    guard let pattern else { return .noMatch }
    let range = NSRange(label.startIndex..<label.endIndex, in: label)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: Self.matchTimeLimit)
    var result = PatternMatch.noMatch
    pattern.enumerateMatches(in: label, options: [.reportProgress], range: range) { match, _, stop in
      if match != nil {
        result = .matches
        stop.pointee = true
      } else if clock.now > deadline {
        result = .undecided
        stop.pointee = true
      }
    }
    return result
  }

  /// A label as compared: without case, accents, surrounding spaces and a trailing colon, inner spaces as one.
  static func normalized(_ label: String) -> String {
    var text = label.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingWhitespace
    while text.hasSuffix(":") { text = String(text.dropLast()).trimmingWhitespace }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The total labels, as ``normalized(_:)`` gives them: English, German, French, Spanish, Italian, Dutch,
  /// Portuguese.
  public static let totalLabels: Set<String> = [
    "total", "totals", "grand total", "subtotal", "sub-total", "sub total", "sum",
    "summe", "gesamt", "gesamtsumme", "zwischensumme", "insgesamt", "endsumme",
    "total general", "totaux", "sous-total", "somme",
    "suma", "suma total", "totales",
    "totale", "totale generale", "subtotale", "somma",
    "totaal", "subtotaal", "eindtotaal",
    "soma", "total geral", "totais",
  ]
}

/// `--skip-rows-matching` was given something that is no regular expression.
public struct RowSkipRuleError: Error, Equatable, Sendable, CustomStringConvertible {
  public let expression: String

  public var description: String {
    "--skip-rows-matching: \(RowError.quoted(expression)) is not a valid regular expression (ICU syntax)"
  }
}
