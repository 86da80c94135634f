import Foundation

/// A provider whose answers the resolver takes as ``AnswerBatch``es, read on the fetch's threads: the same answers
/// as ``RateProvider/answers(to:response:maxStaleness:)``, without a ``RateQuote`` and its strings per key.
protocol BatchAnsweringProvider: RateProvider {
  /// ``RateProvider/answers(to:response:maxStaleness:)`` as a batch (``AnswerBatch/values`` are those answers).
  func answerBatch(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> AnswerBatch
}

extension FrankfurterProvider: BatchAnsweringProvider {
  func answerBatch(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> AnswerBatch {
    scannedBatch(to: request, response: response, maxStaleness: maxStaleness)
      ?? AnswerBatch(readerAnswers(to: request, response: response, maxStaleness: maxStaleness))
  }

  /// ``scannedAnswers(to:response:maxStaleness:)`` as a batch: each row keys take becomes one rate of the batch,
  /// its `fx_source` text written once from the service's name and the row's text; `nil` where the scanner
  /// declines.
  func scannedBatch(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> AnswerBatch? {
    guard let base = request.keys.first?.pair.base else { return AnswerBatch() }
    if response.headers["content-type"]?.lowercased().hasPrefix("application/x-ndjson") ?? false { return nil }
    let limit = answerLimit(for: request, maxStaleness: maxStaleness)
    return response.body.withUnsafeBytes { raw -> AnswerBatch? in
      let bytes = ByteView(raw.bindMemory(to: UInt8.self))
      guard bytes.count < Int(Int32.max) else { return nil }
      var scanner = FrankfurterV2Scanner(bytes: bytes, base: base.packed, pinned: providers, maximumValues: limit)
      guard scanner.scanAnswer(), scanner.orderRows() else { return nil }
      var batch = AnswerBatch()
      // Per quote and row, the row's rate in the batch once a key took it (−1: none yet).
      var rateOfRow = scanner.rowsOfQuote.map { [Int32](repeating: -1, count: $0.count) }
      // Per provider list and quote, `fx_source`'s text before the row's rate (``source(of:_:)``).
      var prefixes: [Int: [UInt8]] = [:]
      for key in request.keys {
        let slot = FrankfurterV2Scanner.slot(of: key.pair.quote.packed)
        let quoteIndex = slot.map { Int(scanner.slotIndex[$0]) } ?? -1
        let rows = quoteIndex >= 0 ? scanner.rowsOfQuote[quoteIndex] : []
        guard let position = Self.latestPosition(in: rows, onOrBefore: key.day) else {
          batch.add(key, .failure(RowError(.noRate, "Frankfurter has no \(key.pair) rate on or before \(key.day)")))
          continue
        }
        let scanned = rows[position]
        let rowDay = CalendarDay(daysSinceEpoch: Int(scanned.day))
        let start = Int(scanned.rateStart)
        let written = bytes[start..<start + Int(scanned.rateLength)].buffer
        var rate = rateOfRow[quoteIndex][position]
        if rate < 0, key.day.days(since: rowDay) <= maxStaleness {
          // The scanner checked that the text reads as a positive number.
          guard
            let value = scanned.isPlain
              ? ExactDecimal(plainUTF8: written) : ExactDecimal(jsonNumber: String(decoding: written, as: UTF8.self))
          else { return nil }
          let exchange = ExchangeRate(numerator: value)
          let listKey = Int(scanned.providers) << 16 | quoteIndex
          let prefix: [UInt8]
          if let known = prefixes[listKey] {
            prefix = known
          } else {
            prefix = Array(sourcePrefix(of: key, providers: scanner.providerLists[Int(scanned.providers)]).utf8)
            prefixes[listKey] = prefix
          }
          rate = batch.addRate(exchange, rateText: exchange.decimalText().utf8, sourcePrefix: prefix, written: written) ?? -1
          rateOfRow[quoteIndex][position] = rate
        }
        if rate >= 0, key.day.days(since: rowDay) <= maxStaleness,
          batch.add(key, rate: rate, rateDay: rowDay, isFallback: rowDay != key.day)
        {
          continue
        }
        // A stale row, or a rate the batch does not keep compactly: the answer as a value.
        guard
          let value = scanned.isPlain
            ? ExactDecimal(plainUTF8: written) : ExactDecimal(jsonNumber: String(decoding: written, as: UTF8.self))
        else { return nil }
        let row = Row(
          day: rowDay, text: String(decoding: written, as: UTF8.self), value: value,
          providers: scanner.providerLists[Int(scanned.providers)])
        batch.add(key, answer(for: key, row: row, maxStaleness: maxStaleness))
      }
      return batch
    }
  }
}
