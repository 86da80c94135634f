extension FieldKeyDecoder {
  /// The rate key of a JSON record read in place, its fields found by ``JSONFieldValues``; `nil` when the general
  /// rules must decide (a currency that is not a string, a date that is not a string — or under a unix date
  /// format a number — or `null`, a string with escapes, and every record with an error).
  ///
  /// - Parameter fields: the record's fields (``JSONFieldValues/find(in:shape:bytes:locator:inner:)``).
  @inline(__always)
  mutating func key(of fields: JSONFieldValues, in bytes: ByteView) -> Key? {
    key(
      from: { $0.jsonCurrency(fields.from, bytes) }, to: { $0.jsonCurrency(fields.to, bytes) },
      date: { decoder in
        guard let field = fields.date else { return .absent }
        let value = JSONFieldValues.value(field, in: bytes)
        switch field.kind {
        case .string:
          return decoder.date(value)
        case .number where decoder.normalizer.dateFormat.isUnix:
          // A unix time may be a JSON number: its text is read as a string's would be.
          return decoder.date(value)
        case .literal where value.count == 4 && value[0] == UInt8(ascii: "n"):
          return .absent  // null: no date
        case .literal, .number, .object, .array, .escapedString:
          return nil
        }
      })
  }

  /// A currency member's code: a string without escapes, read by ``currency(_:)``; `nil` otherwise.
  @inline(__always)
  private mutating func jsonCurrency(_ field: JSONFieldValues.Field?, _ bytes: ByteView) -> CurrencyCode? {
    guard let field, field.kind == .string else { return nil }
    return currency(JSONFieldValues.value(field, in: bytes))
  }
}
