/// How a rate key is answered when a currency of it has ceased (``CurrencyLifecycle/route(for:)``): the key the
/// rate source is asked (``marketKey``, the successors' pair), and the fixed changes chained before and after
/// that market rate.
///
/// 753.45 HRK → USD on 2023-03-01: HRK → EUR at 1 ÷ 7.53450 (fixed), then EUR → USD at the source's rate of the
/// day; the quote is the exact product of the two.
public struct CurrencyRoute: Sendable, Equatable {
  /// The key the rate source answers; the original key when no change applies.
  public let marketKey: RateKey
  /// Changes from the record's from-currency to the market key's base, oldest first.
  public let baseChanges: [CurrencyChange]
  /// Changes from the record's to-currency to the market key's quote, oldest first.
  public let quoteChanges: [CurrencyChange]

  /// Whether the route is the key itself (no change applies).
  public var isDirect: Bool { baseChanges.isEmpty && quoteChanges.isEmpty }

  /// The quote of the original key, from the rate source's answer to ``marketKey``.
  ///
  /// The rate is `∏ (1 ÷ legacy per successor)` along the base changes × the market rate × `∏ legacy per
  /// successor` back along the quote changes, exact. A quote that goes through a change has status `fallback`
  /// (it is not a published rate of the pair) and names each change in its source, e.g.
  /// `fixed EUR/HRK=7.53450 (Council Regulation (EU) 2022/1211) + ecb-embedded EUR/USD=1.0624`.
  ///
  /// - Parameter market: the source's answer to ``marketKey``.
  /// - Returns: the quote; the source's error with the change named in front; `amount_overflow` when the exact
  ///   product needs more than 38 digits.
  public func quote(from market: Result<RateQuote, RowError>) -> Result<RateQuote, RowError> {
    if isDirect { return market }
    let quote: RateQuote
    switch market {
    case .success(let found): quote = found
    case .failure(let error):
      let changes = (baseChanges + quoteChanges).map(\.summary).joined(separator: "; ")
      return .failure(RowError(error.code, "\(changes); \(error.message)"))
    }
    var rate = ExchangeRate.one
    var parts: [String] = []
    for change in baseChanges {
      guard let step = change.rate, let chained = rate.chained(with: step) else { return overflow() }
      rate = chained
      parts.append(change.sourceText)
    }
    guard let withMarket = rate.chained(with: quote.rate) else { return overflow() }
    rate = withMarket
    // The market leg of a change into the same currency (DEM → EUR) is rate 1 and says nothing.
    if marketKey.pair.base != marketKey.pair.quote { parts.append(quote.source) }
    for change in quoteChanges.reversed() {
      guard let step = change.rate, let chained = rate.chained(with: step.inverted) else { return overflow() }
      rate = chained
      parts.append(change.sourceText)
    }
    return .success(
      RateQuote(
        rate: rate, rateText: rate.decimalText(), rateDay: quote.rateDay, isFallback: true,
        source: parts.joined(separator: " + "), period: quote.period))
  }

  private func overflow() -> Result<RateQuote, RowError> {
    .failure(RowError(.amountOverflow, "the rate through the fixed conversions needs more than 38 digits"))
  }
}
