import Foundation

/// The names by which fxbatch recognises a current currency in a service's answer: its ISO 4217 code, its ISO
/// 4217 English name, and the English names Google's calculator wrote (`"U.S. dollars"`, `"British pounds"`,
/// `"Euros"`, `"Swiss francs"`). One table, so every check of an answer's units reads the same names.
///
/// Names are compared without case, dots, accents, repeated spaces or a plural `s` (`"U.S. dollars"` is
/// `"US Dollar"`); irregular plurals (`kronor`, `kroner`, `reais`, `lei`) are listed as names of their own. A
/// name that would fit two currencies (ISO's `"Bolívar Soberano"` is VES and VED) names neither.
public enum CurrencyNames {
  /// The English names of currencies in the calculator's answers that are not their ISO 4217 names, by code.
  /// Source: the answers of Google's `/ig/calculator` (hl=en) and its currency converter's unit names.
  static let calculatorNames: [(code: String, names: [String])] = [
    ("AED", ["U.A.E. dirham", "United Arab Emirates dirham", "Emirati dirham"]),
    ("ARS", ["Argentine peso"]),
    ("AUD", ["Australian dollar"]),
    ("BDT", ["Bangladeshi taka"]),
    ("BHD", ["Bahraini dinar"]),
    ("BRL", ["Brazilian real", "Brazilian reais", "Brazil real", "Brazil reais"]),
    ("BWP", ["Botswana pula", "Botswanan pula"]),
    ("CAD", ["Canadian dollar"]),
    ("CHF", ["Swiss franc"]),
    ("CLP", ["Chilean peso"]),
    ("CNY", ["Chinese yuan", "Chinese yuan renminbi", "Chinese renminbi", "Renminbi"]),
    ("COP", ["Colombian peso"]),
    ("CZK", ["Czech koruna", "Czech koruny", "Czech Republic koruna"]),
    ("DKK", ["Danish krone", "Danish kroner"]),
    ("EGP", ["Egyptian pound"]),
    ("EUR", ["Euro"]),
    ("GBP", ["British pound", "British pound sterling", "U.K. pound"]),
    ("GHS", ["Ghanaian cedi", "Ghana cedi"]),
    ("HKD", ["Hong Kong dollar"]),
    ("HUF", ["Hungarian forint"]),
    ("IDR", ["Indonesian rupiah"]),
    ("ILS", ["Israeli new shekel", "Israeli new sheqel", "Israeli shekel", "New Israeli shekel"]),
    ("INR", ["Indian rupee"]),
    ("ISK", ["Icelandic krona", "Icelandic kronur", "Iceland kronur"]),
    ("JMD", ["Jamaican dollar"]),
    ("JOD", ["Jordanian dinar"]),
    ("JPY", ["Japanese yen"]),
    ("KES", ["Kenyan shilling"]),
    ("KRW", ["South Korean won", "Korean won"]),
    ("KWD", ["Kuwaiti dinar"]),
    ("KZT", ["Kazakhstani tenge", "Kazakhstan tenge"]),
    ("LKR", ["Sri Lankan rupee"]),
    ("MAD", ["Moroccan dirham"]),
    ("MUR", ["Mauritian rupee"]),
    ("MXN", ["Mexican peso"]),
    ("MYR", ["Malaysian ringgit"]),
    ("NGN", ["Nigerian naira"]),
    ("NOK", ["Norwegian krone", "Norwegian kroner"]),
    ("NPR", ["Nepalese rupee"]),
    ("NZD", ["New Zealand dollar"]),
    ("OMR", ["Omani rial"]),
    ("PEN", ["Peruvian sol", "Peruvian nuevo sol", "Peruvian nuevos soles", "Peruvian soles"]),
    ("PHP", ["Philippine peso"]),
    ("PKR", ["Pakistani rupee", "Pakistan rupee"]),
    ("PLN", ["Polish zloty", "Polish zlotys", "Polish złoty", "Polish zlotych"]),
    ("QAR", ["Qatari riyal", "Qatari rial"]),
    ("RON", ["Romanian leu", "Romanian lei", "Romanian new leu", "Romanian new lei"]),
    ("RUB", ["Russian ruble", "Russian rouble"]),
    ("SAR", ["Saudi riyal", "Saudi Arabian riyal"]),
    ("SEK", ["Swedish krona", "Swedish kronor"]),
    ("SGD", ["Singapore dollar"]),
    ("THB", ["Thai baht"]),
    ("TND", ["Tunisian dinar"]),
    ("TRY", ["Turkish lira", "Turkish new lira"]),
    ("TTD", ["Trinidad and Tobago dollar"]),
    ("TWD", ["New Taiwan dollar", "Taiwan dollar", "Taiwan new dollar"]),
    ("TZS", ["Tanzanian shilling"]),
    ("UAH", ["Ukrainian hryvnia"]),
    ("UGX", ["Ugandan shilling"]),
    ("USD", ["U.S. dollar", "United States dollar"]),
    ("VND", ["Vietnamese dong"]),
    ("XAF", ["Central African CFA franc"]),
    ("XOF", ["West African CFA franc"]),
    ("XDR", ["Special Drawing Right"]),
    ("ZAR", ["South African rand"]),
    ("ZMW", ["Zambian kwacha"]),
  ]

  /// Every recognised name, normalized, with its currency; names of two currencies are left out.
  static let table: [String: CurrencyCode] = {
    var table: [String: CurrencyCode] = [:]
    var ambiguous: Set<String> = []
    func add(_ name: String, _ code: CurrencyCode) {
      let key = normalized(name)
      if let known = table[key], known != code { ambiguous.insert(key) }
      table[key] = code
    }
    for currency in ISO4217.allCurrencies where !currency.isHistoric { add(currency.name, currency.code) }
    for (text, names) in calculatorNames {
      guard let code = CurrencyCode(text), ISO4217.currency(for: code)?.isHistoric == false else {
        preconditionFailure("CurrencyNames names \(text), which is no current ISO 4217 currency")
      }
      for name in names { add(name, code) }
    }
    for key in ambiguous { table[key] = nil }
    return table
  }()

  /// The currency a unit of an answer names.
  ///
  /// - Parameter unit: a code in capitals (`"USD"`, any ISO 4217 code) or a name (`"British pounds"`).
  /// - Returns: the currency, or `nil` when the unit is not one fxbatch knows.
  public static func currency(named unit: String) -> CurrencyCode? {
    let trimmed = unit.trimmingWhitespace
    if trimmed.utf8.count == 3, trimmed == trimmed.uppercased(), let code = CurrencyCode(trimmed) { return code }
    return table[normalized(trimmed)]
  }

  /// A name as compared: lower case, no accents or dots, single spaces, no plural `s`.
  static func normalized(_ name: String) -> String {
    var text = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
      .lowercased().replacingOccurrences(of: ".", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    if text.hasSuffix("s"), !text.hasSuffix("ss") { text.removeLast() }
    return text
  }
}
