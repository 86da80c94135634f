extension FieldKeyDecoder {
  /// The rate key of a CSV record, read in place (with ``CSVRecordView/readablePadding``) by the header's
  /// mapping; `nil` when the general rules must decide (a record with another field count, a quoted currency or
  /// date, and every record with an error).
  @inline(__always)
  mutating func key(of record: CSVRecordView) -> Key? {
    guard let mapping = normalizer.mapping, record.fieldCount == normalizer.headerFieldCount else { return nil }
    // The closures capture the fields' views, not the record (whose copies cost reference counting).
    let (fromBytes, toBytes) = (record.field(mapping.from), record.field(mapping.to))
    let dateBytes = mapping.date.map { record.field($0) }
    return key(
      from: { $0.csvCurrency(fromBytes) }, to: { $0.csvCurrency(toBytes) },
      date: { decoder in
        guard let bytes = dateBytes else { return .absent }
        return decoder.date(cacheKey: Self.cacheKey(padded: bytes), text: { Self.csvText(bytes) })
      })
  }

  /// What a CSV record's date says about the order of slash dates (``DateLayoutInference/evidence(_:)``), read in
  /// place; `nil` when the general rules must read it (a quoted date).
  @inline(__always)
  mutating func dateEvidence(of record: CSVRecordView) -> DateLayoutInference.Evidence? {
    dateEvidence(of: record, column: normalizer.mapping?.date)
  }

  /// ``dateEvidence(of:)`` with the header's date column given (read once by the caller, not per record).
  @inline(__always)
  mutating func dateEvidence(of record: CSVRecordView, column: Int?) -> DateLayoutInference.Evidence? {
    let bytes = record.field(column)
    if Self.startsWithThreeDigits(bytes) { return .neutral }
    return dateEvidence(cacheKey: Self.cacheKey(padded: bytes), text: { Self.csvText(bytes) })
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
