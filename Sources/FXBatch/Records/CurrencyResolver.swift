/// Reads what a currency field or an amount's currency mark names: an ISO 4217 code, a name the user
/// mapped to one (`--alias RMB=CNY`, `--symbol '$=USD'`), or a symbol of one currency (`€`, ``CurrencySymbols``).
///
/// Nothing is guessed: a shared symbol (`$`, `¥`, `kr`) is `ambiguous_currency` until `--symbol` says which
/// currency it means, and a common non-ISO name (`RMB`, `CNH`) is `unknown_currency` with a hint.
public struct CurrencyResolver: Sendable {
  /// `--alias NAME=CODE`, keyed by the name in lower case.
  public let aliases: [String: CurrencyCode]
  /// `--symbol SYMBOL=CODE`, keyed by the symbol in lower case.
  public let symbols: [String: CurrencyCode]

  /// - Parameters:
  ///   - aliases: non-ISO names and the codes they mean (`["RMB": CNY]`); compared ignoring case.
  ///   - symbols: symbols and the codes they mean in this run (`["$": USD]`); compared ignoring case.
  public init(aliases: [String: CurrencyCode] = [:], symbols: [String: CurrencyCode] = [:]) {
    self.aliases = Dictionary(aliases.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.symbols = Dictionary(symbols.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  /// What a piece of text names.
  enum Meaning: Equatable {
    /// One currency; `how` says why, for messages (`nil` for an ISO code).
    case currency(CurrencyCode, how: String?)
    /// A symbol several currencies use.
    case several([CurrencyCode])
    /// Nothing known; the error when the text is a known non-ISO name.
    case unknown(RowError?)
  }

  /// What a trimmed piece of text names.
  func meaning(of text: String) -> Meaning {
    if let code = CurrencyCode(text) { return .currency(code, how: nil) }
    let key = text.lowercased()
    if let code = aliases[key] { return .currency(code, how: "--alias \(text)=\(code)") }
    if let code = symbols[key] { return .currency(code, how: "--symbol \(text)=\(code)") }
    if let codes = CurrencySymbols.currencies(for: text) {
      return codes.count == 1 ? .currency(codes[0], how: text) : .several(codes)
    }
    if let known = Self.nonISONames[key] {
      return .unknown(RowError(.unknownCurrency, "\(RowError.quoted(text)) is not an ISO 4217 currency code: \(known)"))
    }
    return .unknown(nil)
  }

  /// The currency a currency field names.
  ///
  /// - Parameter text: the field's text; surrounding whitespace is ignored.
  /// - Returns: the code; or `missing_field` (empty), `ambiguous_currency` (a shared symbol such as `$`
  ///   without `--symbol`) or `unknown_currency`.
  public func currency(_ text: String) -> Result<CurrencyCode, RowError> {
    if let code = CurrencyCode(text) { return .success(code) }  // the usual case, without trimming twice
    let trimmed = text.trimmingWhitespace
    guard !trimmed.isEmpty else { return .failure(RowError(.missingField, "the currency is empty")) }
    switch meaning(of: trimmed) {
    case .currency(let code, _): return .success(code)
    case .several(let codes):
      return .failure(
        RowError(
          .ambiguousCurrency,
          "\(RowError.quoted(trimmed)) is the symbol of several currencies (\(Self.list(codes))); say which with --symbol '\(trimmed)=\(codes[0])'"
        ))
    case .unknown(let error):
      return .failure(error ?? RowError(.unknownCurrency, "\(RowError.quoted(trimmed)) is not an ISO 4217 currency code"))
    }
  }

  /// Checks the currency mark of an amount cell (`$` in `$1,200.00`, `EUR` in `5 EUR`) against the record's
  /// from-currency.
  ///
  /// A shared symbol is accepted when the from-currency is one of the currencies it is used for (`$` in a
  /// USD or CAD record), unless `--symbol` says it means another one.
  ///
  /// - Parameters:
  ///   - mark: the mark as written.
  ///   - cell: the whole cell, trimmed, for messages.
  ///   - currency: the record's from-currency; `nil` when the record has none (it fails on that later).
  /// - Returns: `nil` when the mark agrees; else `invalid_amount` (another currency, or not a currency at
  ///   all) or `unknown_currency` (a known non-ISO name such as `RMB`).
  func check(mark: String, cell: String, currency: CurrencyCode?) -> RowError? {
    switch meaning(of: mark) {
    case .currency(let code, let how):
      guard let currency, code != currency else { return nil }
      let named = how.map { "\(code) (\($0))" } ?? "\(code)"
      return RowError(
        .invalidAmount, "\(RowError.quoted(cell)) is an amount in \(named), but the record's from-currency is \(currency)")
    case .several(let codes):
      guard let currency, !codes.contains(currency) else { return nil }
      return RowError(
        .invalidAmount,
        "\(RowError.quoted(cell)): \(mark) is the symbol of \(Self.list(codes)), not of \(currency), the record's from-currency")
    case .unknown(let error):
      return error
        ?? RowError(
          .invalidAmount,
          "\(RowError.quoted(cell)) is not a number (\(RowError.quoted(mark)) is not a currency code or symbol fxbatch knows)")
    }
  }

  /// The currency an amount's text names by its currency mark (`USD` in `USD 1,234.56`, `€` in `€12.50`), for a
  /// record without a from-currency of its own (fxbatch issue 32).
  ///
  /// - Parameter text: the amount's text.
  /// - Returns: `nil` when the text names no currency (no mark, or not an amount at all: the amount's own error
  ///   says why); else the code, or `ambiguous_currency` (a shared symbol such as `$` without `--symbol`),
  ///   `unknown_currency` (a known non-ISO name such as `RMB`) or `invalid_amount` (a mark that names nothing).
  func currency(ofAmount text: String) -> Result<CurrencyCode, RowError>? {
    let trimmed = text.trimmingWhitespace
    guard case .success(let cell) = AmountCell.split(trimmed), let mark = cell.currencyMark else { return nil }
    switch meaning(of: mark) {
    case .currency(let code, _): return .success(code)
    case .several(let codes):
      return .failure(
        RowError(
          .ambiguousCurrency,
          "\(RowError.quoted(trimmed)): \(mark) is the symbol of several currencies (\(Self.list(codes))) and the record"
            + " has no from-currency; say which with --symbol '\(mark)=\(codes[0])'"
        ))
    case .unknown:
      return .failure(
        check(mark: mark, cell: trimmed, currency: nil) ?? RowError(.invalidAmount, "\(RowError.quoted(trimmed)) is not a number")
      )
    }
  }

  /// Names in use for currencies that are not ISO 4217 codes, and what to do instead (keyed in lower case).
  static let nonISONames: [String: String] = [
    "rmb": "RMB (renminbi) is the currency's name; it usually means CNY: add --alias RMB=CNY if it does here",
    "ntd": "it usually means the New Taiwan dollar, TWD: add --alias NTD=TWD if it does here",
    "nis": "it usually means the new Israeli shekel, ILS: add --alias NIS=ILS if it does here",
    "stg": "it usually means pound sterling, GBP: add --alias STG=GBP if it does here",
    "cnh":
      "it is the offshore renminbi, quoted apart from CNY; add --alias CNH=CNY only if your rates treat them as one",
    "gbx": "it is pence sterling (1/100 GBP); convert the amounts to GBP first",
  ]

  /// `USD, CAD, AUD, …`: the first three codes.
  private static func list(_ codes: [CurrencyCode]) -> String {
    codes.prefix(3).map(\.description).joined(separator: ", ") + (codes.count > 3 ? ", …" : "")
  }
}
