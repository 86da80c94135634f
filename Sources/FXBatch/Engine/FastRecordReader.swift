/// What a format gives the engine's per-record fast loop (``FastRecordLoop``): a record's rate key and plain
/// amounts read in place from its bytes, and where the annotation goes in them. The loop does the rest (the
/// amounts in major units, the conversion, the counts, the output buffer), the same for every format.
///
/// A reader decides nothing of its own: it locates a record's fields as the format's general reader would,
/// decodes their values through the loop's one cached key decoder (``FieldKeyDecoder``, whose rules are the
/// general ones), and declines anything else — a field it cannot locate in place, a value to unescape, an
/// amount that is not plain — so that the general path writes that record, and the output is the same either way.
protocol FastRecordReader {
  /// A record as the format's scanner hands it over (a CSV record view, a JSON record's bytes, an XML record
  /// with its shape).
  associatedtype Record

  /// Reads a record: its rate key through `keys`, and its amounts in the order of the run's amount fields
  /// (``FastRecordAmounts/appendPlain(_:mark:)``).
  ///
  /// - Returns: the key; `nil` declines the record, which the general path then writes.
  mutating func read(
    _ record: Record, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts
  ) -> FieldKeyDecoder.Key?

  /// Appends the annotation of the record read last (``read(_:keys:amounts:)``): `converter`'s texts of
  /// `conversion` through the reader's template (``TableConverter/appendAnnotation(_:template:to:)``).
  ///
  /// A method, not a template the loop fetches: the reader lends its template where it is kept, and the record
  /// loop copies none (a copy costs reference counting per record).
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, from converter: inout TableConverter, to output: inout ByteBuffer)

  /// ``appendAnnotation(_:from:to:)`` of a record of several amounts: `converted` holds each amount converted,
  /// in order (``TableConverter/appendAnnotation(_:converted:template:to:)``).
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, converted: InlineList<ExactDecimal>, from converter: inout TableConverter,
    to output: inout ByteBuffer)

  /// Appends the record's bytes up to where its annotation goes (the record read last).
  func appendHead(of record: Record, to output: inout ByteBuffer)

  /// Appends the rest of the record's bytes, after its annotation.
  func appendTail(of record: Record, to output: inout ByteBuffer)

  /// Gives this copy its own buffers and caches (a copy that reads another part of the file, on another thread).
  mutating func makeUnique()

  /// The record's first non-blank field as text, as the general reader gives it (``RecordFields/label``), for
  /// the run's summary-row rule (``RowSkipRule``); `nil` when the reader cannot say in place: a record the rule
  /// may skip then goes to the general rules.
  func label(of record: Record) -> String?

  /// Whether the format's records have a first field at all; `false` (XML): the summary-row rule never skips
  /// one, so the fast path need not ask.
  static var hasLabels: Bool { get }
}

extension FastRecordReader {
  func label(of record: Record) -> String? { nil }
  static var hasLabels: Bool { true }
}
