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

  /// Every currency in the table, sorted by code.
  public static var allCurrencies: [Currency] { table.values.sorted { $0.code < $1.code } }
}
