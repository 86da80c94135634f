/// One irrevocable change of a currency on a day: a euro changeover, a redenomination, or a replacement at no
/// fixed ratio. The table of them is ``CurrencyLifecycle``.
///
/// A changeover and a redenomination carry a fixed ratio, ``legacyPerSuccessor``: from ``effective`` on, an
/// amount in the legacy currency is worth `amount ÷ legacyPerSuccessor` units of the successor, exactly
/// (EU Council Regulation (EC) No 1103/97, article 4: convert by dividing by the conversion rate, never by
/// multiplying with a rounded inverse).
public struct CurrencyChange: Sendable, Equatable {
  /// What kind of change it was.
  public enum Kind: String, Sendable {
    /// A member state adopted the euro: its currency became a denomination of the euro at a conversion rate
    /// the EU Council fixed irrevocably (DEM 1.95583 per EUR).
    case euroChangeover = "fixed"
    /// A new code for the same money with fewer units (100000 VEF = 1 VES).
    case redenomination
    /// The currency was replaced at a rate that is not a fixed legal ratio fxbatch carries (ZWL → ZWG): records
    /// in the legacy currency on or after ``effective`` cannot be converted.
    case replacement
  }

  public let kind: Kind
  /// The currency that ceased: DEM, VEF.
  public let legacy: CurrencyCode
  /// The currency that took its place: EUR, VES.
  public let successor: CurrencyCode
  /// The first day the legacy currency converts through the change (the changeover day).
  public let effective: CalendarDay
  /// Units of the legacy currency per one unit of the successor, exact (1.95583 DEM per EUR; 100000 VEF per
  /// VES); `nil` for a ``Kind/replacement``.
  public let legacyPerSuccessor: ExactDecimal?
  /// The legal act that fixed the change, e.g. `"Council Regulation (EC) No 2866/98"`.
  public let authority: String
  /// The first day the change may no longer be applied, when the successor's code later changed its meaning
  /// (VES was redenominated again on 2021-10-01 under the same code in rate feeds): from this day the legacy
  /// currency has no safe conversion. `nil`: the change holds for good.
  public let expires: CalendarDay?
  /// Why the change expires or has no ratio, for the error message.
  public let note: String?

  init(
    _ kind: Kind, _ legacy: String, _ successor: String, _ effective: String, _ legacyPerSuccessor: String?,
    _ authority: String, expires: String? = nil, note: String? = nil
  ) {
    guard let legacyCode = CurrencyCode(letters: legacy), let successorCode = CurrencyCode(letters: successor),
      let effectiveDay = CalendarDay(iso8601: effective)
    else { preconditionFailure("CurrencyLifecycle+Rules.swift: bad change \(legacy) → \(successor) \(effective)") }
    self.kind = kind
    self.legacy = legacyCode
    self.successor = successorCode
    self.effective = effectiveDay
    self.legacyPerSuccessor = legacyPerSuccessor.map { text in
      guard let ratio = ExactDecimal(text), ratio.significand > 0 else {
        preconditionFailure("CurrencyLifecycle+Rules.swift: bad ratio \(text) for \(legacy)")
      }
      return ratio
    }
    self.authority = authority
    self.expires = expires.map { text in
      guard let day = CalendarDay(iso8601: text) else { preconditionFailure("CurrencyLifecycle+Rules.swift: bad day \(text)") }
      return day
    }
    self.note = note
  }

  /// The rate of converting legacy → successor: `1 ÷ legacyPerSuccessor` successor units per legacy unit;
  /// `nil` for a replacement.
  public var rate: ExchangeRate? {
    legacyPerSuccessor.map { ExchangeRate(numerator: .one, denominator: $0) }
  }

  /// The change as written in `fx_source`, in the notation of the published legs (`EUR/USD=1.1234` is 1.1234 USD
  /// per EUR): `fixed EUR/HRK=7.53450 (Council Regulation (EU) 2022/1211)`,
  /// `redenomination VES/VEF=100000 (…)`.
  public var sourceText: String {
    let ratio = legacyPerSuccessor.map { "=\($0)" } ?? ""
    return "\(kind.rawValue) \(successor)/\(legacy)\(ratio) (\(authority))"
  }

  /// The change in words, for error messages: `VEF became VES on 2018-08-20 (100000 VEF = 1 VES, …)`.
  var summary: String {
    let ratio = legacyPerSuccessor.map { "\($0) \(legacy) = 1 \(successor), " } ?? "at no fixed ratio, "
    return "\(legacy) became \(successor) on \(effective) (\(ratio)\(authority))"
  }
}
