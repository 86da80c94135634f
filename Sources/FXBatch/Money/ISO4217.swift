/// The ISO 4217 currency table fxbatch validates codes against: List One (current codes) and the List Three
/// (historic) codes found in the ECB reference-rate history and in old ledgers.
///
/// The table is part of the project (see `ISO4217+Entries.swift`), not taken from `Locale.isoCurrencyCodes`,
/// whose ICU data lags ISO amendments.
public enum ISO4217 {
  /// One line of the table, as written in `ISO4217+Entries.swift`.
  struct Entry {
    let code: String
    let minorUnits: Int
    let name: String
    let withdrawn: String?

    init(_ code: String, _ minorUnits: Int, _ name: String, withdrawn: String? = nil) {
      self.code = code
      self.minorUnits = minorUnits
      self.name = name
      self.withdrawn = withdrawn
    }
  }

  private static let table: [CurrencyCode: Currency] = {
    var table: [CurrencyCode: Currency] = [:]
    for entry in entries {
      guard let code = CurrencyCode(letters: entry.code) else {
        preconditionFailure("ISO4217+Entries.swift holds an invalid code \(entry.code)")
      }
      table[code] = Currency(code: code, minorUnits: entry.minorUnits, name: entry.name, withdrawn: entry.withdrawn)
    }
    return table
  }()

  /// The currency a code names.
  ///
  /// - Parameter code: an ISO 4217 code.
  /// - Returns: the table's entry, or `nil` when the code is not in ISO 4217 (current or historic).
  public static func currency(for code: CurrencyCode) -> Currency? { table[code] }

  /// The codes whose minor unit ISO 4217 gives as "N.A." (precious metals, units of account, the testing and
  /// no-currency codes): the table says 0 for them, which is how converted amounts are rounded, but an amount
  /// cannot be counted in their minor units.
  static let codesWithoutMinorUnit: Set<String> = [
    "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX",
  ]

  /// How many decimals a code's minor unit has (2 for USD cents, 0 for JPY, 3 for KWD), for amounts counted in
  /// minor units (`--amount-unit minor`).
  ///
  /// - Returns: `nil` when the code is not in the table, or ISO 4217 gives it no minor unit
  ///   (``codesWithoutMinorUnit``).
  public static func minorUnits(of code: CurrencyCode) -> Int? {
    guard let currency = table[code], !codesWithoutMinorUnit.contains(code.description) else { return nil }
    return currency.minorUnits
  }

  /// Every currency in the table, sorted by code.
  public static var allCurrencies: [Currency] { table.values.sorted { $0.code < $1.code } }
}
