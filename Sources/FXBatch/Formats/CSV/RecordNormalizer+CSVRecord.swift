// CSV records are read with the CSV format: Records/ sits below Formats/ (LayeringTests).

extension RecordNormalizer {
  /// A field's value, or `nil` when the record is too short to have it.
  private func value(_ record: CSVRecord, _ index: Int?) -> String? {
    guard let index, index < record.fieldCount else { return nil }
    return record.field(index)
  }

  /// A CSV record's fields; a field the record is too short to have is empty, and a record with more fields
  /// than the header has the `extra_fields` problem.
  public func fields(of record: CSVRecord) -> RecordFields {
    func text(_ index: Int?) -> RecordFields.Value { .text(value(record, index) ?? "") }
    var fields = RecordFields(
      amount: text(mapping?.amount), from: mapping?.from == nil ? .absent : text(mapping?.from), to: text(mapping?.to),
      date: text(mapping?.date))
    if let indices = mapping?.amounts, !indices.isEmpty {
      fields.amounts = indices.map { RecordFields(amount: text($0), from: .absent, to: .absent, date: .absent) }
    }
    if record.fieldCount > headerFieldCount {
      fields.problem = RowError(
        .extraFields,
        "the record has \(record.fieldCount) fields, the header \(headerFieldCount); fix its quoting or delimiters")
    }
    return fields
  }

  /// The amount field's text (for inferring the column's decimal mark).
  public func amountText(of record: CSVRecord) -> String? { value(record, mapping?.amount) }

  /// The texts of the second and later of several amounts (``FieldMapping/amounts``), for the decimal mark too.
  func moreAmountTexts(of record: CSVRecord) -> [String] {
    (mapping?.amounts.dropFirst() ?? []).compactMap { value(record, $0) }
  }

  /// The to-currency, when the record names a valid one (to annotate error rows with it).
  public func targetCurrency(of record: CSVRecord) -> CurrencyCode? { targetCurrency(of: fields(of: record)) }

  /// The rate question of a CSV record, see ``rateKey(of:)-(RecordFields)``.
  public func rateKey(of record: CSVRecord) -> Result<(key: RateKey, usedDefaultDay: Bool), RowError> {
    rateKey(of: fields(of: record))
  }
}
