extension FieldKeyDecoder {
  /// The rate key of an XML record read by ``XMLSimpleScanner``, its role fields found through its shape and paths, for pass
  /// 2's fast path (``XMLFastRecordReader``) and pass 1's key collection (``XMLFormat/SpanReader``); `nil` when the
  /// general rules must read the record (a shape with a problem, a missing field, a value they refuse).
  ///
  /// A value is decoded as ``XMLFieldLocator`` gives it (entities decoded, trimmed); one with an entity or a
  /// character reference is decoded every time, not cached by its bytes.
  ///
  /// - Parameter fields: where the record's roles are (``XMLRecordShapes/roleFields(of:shape:in:)``).
  @inline(__always)
  mutating func key(_ fields: XMLRecordShapes.RoleFields, in bytes: ByteView) -> Key? {
    guard !fields.hasProblem else { return nil }
    return key(
      from: { $0.xmlCurrency(fields.from, bytes) }, to: { $0.xmlCurrency(fields.to, bytes) },
      date: { decoder in
        guard let field = fields.date else { return .absent }
        return decoder.date(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) })
      })
  }

  /// What an XML record's date says about the order of slash dates (``dateEvidence(cacheKey:text:)``):
  /// ``DateLayoutInference/Evidence/neutral`` without a date field; `nil` when the general rules must read the
  /// record (a shape with a problem).
  @inline(__always)
  mutating func dateEvidence(_ fields: XMLRecordShapes.RoleFields, in bytes: ByteView) -> DateLayoutInference.Evidence? {
    guard !fields.hasProblem else { return nil }
    guard let field = fields.date else { return .neutral }
    if !field.needsDecoding, Self.startsWithThreeDigits(bytes.slice(field.valueStart..<field.valueEnd)) { return .neutral }
    return dateEvidence(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) })
  }

  /// A currency field's code (``currency(cacheKey:text:)``); `nil` for a record without the field, or a value the
  /// general rules refuse.
  @inline(__always)
  mutating func xmlCurrency(_ field: XMLScannedRecord.Field?, _ bytes: ByteView) -> CurrencyCode? {
    guard let field else { return nil }
    return currency(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) })
  }

  /// A field's raw bytes as a cache key, when they are its text (no entity to decode).
  @inline(__always)
  private static func xmlCacheKey(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> CacheKey? {
    field.needsDecoding ? nil : cacheKey(bytes.slice(field.valueStart..<field.valueEnd))
  }

  /// A field's value as ``XMLFieldLocator`` gives it: decoded and trimmed.
  private static func text(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> String {
    XMLSimpleScanner.decodedText(field, in: bytes).trimmingWhitespace
  }
}
