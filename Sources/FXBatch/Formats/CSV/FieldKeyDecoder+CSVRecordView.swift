extension FieldKeyDecoder {
  /// The rate key of a CSV record, read in place (with ``CSVRecordView/readablePadding``) by the header's
  /// mapping; `nil` when the general rules must decide (a record with another field count, a quoted currency or
  /// date, and every record with an error).
  @inline(__always)
  mutating func key(of record: CSVRecordView) -> Key? {
    guard let mapping = normalizer.mapping, record.fieldCount == normalizer.headerFieldCount else { return nil }
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let found = csvCurrency(record.field(mapping.from)) else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let found = csvCurrency(record.field(mapping.to)) else { return nil }
      to = found
    }
    var date: DateValue? = nil
    if let dateField = mapping.date {
      let bytes = record.field(dateField)
      guard let value = self.date(cacheKey: Self.cacheKey(padded: bytes), text: { Self.csvText(bytes) })
      else { return nil }
      date = value
    }
    return key(from: from, to: to, date: date)
  }

  @inline(__always)
  private mutating func csvCurrency(_ bytes: ByteView) -> CurrencyCode? {
    currency(cacheKey: Self.cacheKey(padded: bytes)) { Self.csvText(bytes) }
  }

  /// A field's text when its bytes are it; `nil` for a quoted field (the general rules unquote it).
  @inline(__always)
  private static func csvText(_ bytes: ByteView) -> String? {
    guard bytes.isEmpty || bytes[0] != UInt8(ascii: "\"") else { return nil }
    return bytes.text
  }
}
