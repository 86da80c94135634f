extension FieldKeyDecoder {
  /// The rate key of an XML record read by ``XMLSimpleScanner``, its fields found through its shape, for pass
  /// 2's fast path (``XMLFastPass``) and pass 1's key collection (``XMLFormat/SpanReader``); `nil` when the
  /// general rules must read the record (a shape with a problem, a missing field, a value they refuse).
  ///
  /// A value is decoded as ``XMLFieldLocator`` gives it (entities decoded, trimmed); one with an entity or a
  /// character reference is decoded every time, not cached by its bytes.
  @inline(__always)
  mutating func key(_ record: XMLScannedRecord, shape: Int, shapes: XMLRecordShapes, in bytes: ByteView) -> Key? {
    guard !shapes.hasProblem(shape) else { return nil }
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      let index = shapes.field(.from, shape: shape)
      guard index >= 0 else { return nil }
      let field = record.fields[index]
      guard let found = currency(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) }) else {
        return nil
      }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      let index = shapes.field(.to, shape: shape)
      guard index >= 0 else { return nil }
      let field = record.fields[index]
      guard let found = currency(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) }) else {
        return nil
      }
      to = found
    }
    var date: DateValue? = nil
    let dateField = shapes.field(.date, shape: shape)
    if dateField >= 0 {
      let field = record.fields[dateField]
      guard let value = self.date(cacheKey: Self.xmlCacheKey(field, bytes), text: { Self.text(field, bytes) }) else {
        return nil
      }
      date = value
    }
    return key(from: from, to: to, date: date)
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
