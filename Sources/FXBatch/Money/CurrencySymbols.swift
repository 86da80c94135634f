/// The currency symbols fxbatch knows, and the ISO 4217 codes each one is used for.
///
/// A symbol used for one currency only (`€`, `£`, `₹`, `zł`, `US$`) names that currency; a symbol used for
/// several (`$`, `¥`, `kr`) names none of them until `--symbol '$=USD'` says which (see ``CurrencyResolver``).
/// Sources: the Unicode Currency Symbols block (U+20A0 ... U+20CF) and the symbols in common use listed by
/// CLDR (`common/main/*.xml`, `<currency><symbol>`); `£` and `₩` follow fxbatch issue 6 (GBP, KRW), although
/// a few other currencies write them too.
public enum CurrencySymbols {
  /// The currencies a symbol is used for, keyed by the symbol in lower case (`"zł"`, `"us$"`, `"kr"`).
  static let table: [String: [CurrencyCode]] = {
    let entries: [(String, [String])] = [
      // Symbols of one currency.
      ("€", ["EUR"]), ("£", ["GBP"]), ("₹", ["INR"]), ("₩", ["KRW"]), ("₺", ["TRY"]), ("zł", ["PLN"]),
      ("₽", ["RUB"]), ("₪", ["ILS"]), ("฿", ["THB"]), ("₴", ["UAH"]), ("₫", ["VND"]), ("₦", ["NGN"]),
      ("₱", ["PHP"]), ("₲", ["PYG"]), ("₸", ["KZT"]), ("₾", ["GEL"]), ("₼", ["AZN"]), ("₭", ["LAK"]),
      ("₮", ["MNT"]), ("₡", ["CRC"]), ("kč", ["CZK"]), ("ft", ["HUF"]), ("円", ["JPY"]),
      ("us$", ["USD"]), ("a$", ["AUD"]), ("au$", ["AUD"]), ("ca$", ["CAD"]), ("nz$", ["NZD"]), ("hk$", ["HKD"]),
      ("s$", ["SGD"]), ("mx$", ["MXN"]), ("nt$", ["TWD"]), ("r$", ["BRL"]),
      // Symbols of several currencies.
      ("$", ["USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN", "ARS", "CLP", "COP", "TWD"]),
      ("¥", ["JPY", "CNY"]), ("￥", ["JPY", "CNY"]),
      ("kr", ["SEK", "NOK", "DKK", "ISK"]), ("kr.", ["DKK", "ISK", "NOK"]),
      ("rs", ["INR", "PKR", "LKR", "NPR"]), ("rs.", ["INR", "PKR", "LKR", "NPR"]),
    ]
    var table: [String: [CurrencyCode]] = [:]
    for (symbol, codes) in entries {
      table[symbol] = codes.map { text in
        guard let code = CurrencyCode(text) else { preconditionFailure("CurrencySymbols holds an unknown code \(text)") }
        return code
      }
    }
    return table
  }()

  /// The currencies a symbol is used for.
  ///
  /// - Parameter symbol: the symbol as written (`"€"`, `"ZŁ"`, `"$"`); letters are compared ignoring case.
  /// - Returns: one code for a symbol of one currency, several (most common first) for a shared symbol, or
  ///   `nil` for text that is not a known symbol.
  public static func currencies(for symbol: String) -> [CurrencyCode]? { table[symbol.lowercased()] }
}
