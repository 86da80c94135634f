/// The fast loop's reader (``FastRecordReader``) of CSV records: decodes a record's key in place
/// (``FieldKeyDecoder/key(of:)``) and its plain amount, and puts the annotation fields after its last field,
/// before its line terminator.
struct CSVFastRecordReader: FastRecordReader {
  /// The column's decimal mark byte, `nil` when undecided (then only integer amounts are plain).
  let decimalMark: UInt8?
  let amountField: Int?
  /// With several amounts (``FieldMapping/amounts``), the columns of the second and later ones; empty for one.
  let moreAmountFields: [Int]
  let template: AnnotationTemplate

  /// - Parameter amountFields: the columns of several amounts (``FieldMapping/amounts``, the first being
  ///   `amountField`); empty for one amount.
  init(delimiter: UInt8, decimalMark: UInt8?, amountField: Int?, amountFields: [Int] = []) {
    self.decimalMark = decimalMark
    self.amountField = amountField
    moreAmountFields = Array(amountFields.dropFirst())
    template = .csv(delimiter: delimiter, amountCount: max(1, amountFields.count))
  }

  mutating func makeUnique() {}

  /// The first field that is not blank, as the general reader reads it; `nil` when a quoted field comes first
  /// (its text needs unescaping).
  func label(of record: CSVRecordView) -> String? {
    for index in 0..<record.fieldCount {
      let field = record.field(index)
      if field.firstIndex(of: UInt8(ascii: "\"")) != nil { return nil }
      let text = field.text
      if !text.trimmingWhitespace.isEmpty { return text }
    }
    return nil
  }

  @inline(__always)
  mutating func read(_ record: CSVRecordView, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts)
    -> FieldKeyDecoder.Key?
  {
    guard let key = keys.key(of: record), amounts.appendPlain(record.field(amountField), mark: decimalMark) else {
      return nil
    }
    for field in moreAmountFields {
      guard amounts.appendPlain(record.field(field), mark: decimalMark) else { return nil }
    }
    return key
  }

  @inline(__always)
  func appendHead(of record: CSVRecordView, to output: inout ByteBuffer) {
    output.append(record.bytes.slice(0..<record.length))
  }

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, from converter: inout TableConverter, to output: inout ByteBuffer
  ) {
    converter.appendAnnotation(conversion, template: template, to: &output)
  }

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, converted: InlineList<ExactDecimal>, from converter: inout TableConverter,
    to output: inout ByteBuffer
  ) {
    converter.appendAnnotation(conversion, converted: converted, template: template, to: &output)
  }

  @inline(__always)
  func appendTail(of record: CSVRecordView, to output: inout ByteBuffer) {
    output.append(record.terminator)
  }
}

/// Pass 2's per-record fast path over a CSV file.
typealias CSVRecordLoop = FastRecordLoop<CSVFastRecordReader>
