/// How big one record may be, in every format's readers, so that memory and time stay bounded on hostile input
/// (a file with no line end, a line of a hundred million delimiters, an XML element with a hundred thousand
/// attributes): a record past a limit makes the file a file error that names the record and the option.
///
/// The defaults are far above any real export (a spreadsheet holds at most 16,384 columns and 32,767
/// characters per cell) and keep a reader's memory a small multiple of ``maxRecordBytes``.
public struct RecordLimits: Sendable, Equatable {
  /// The most bytes one record may have, line ends inside quotes included (`--max-record-size`; default 16 MiB).
  public var maxRecordBytes: Int
  /// The most fields (CSV cells, JSON members, XML attributes and child elements together) one record may have.
  public var maxFields: Int
  /// The most attributes one XML element may have (libxml2 checks duplicates in quadratic time).
  public var maxAttributes: Int
  /// The most descendant elements one XML record may have.
  public var maxChildElements: Int

  /// The most bytes one field may have: a sixteenth of ``maxRecordBytes`` (1 MiB by default), at least 64 KiB.
  public var maxFieldBytes: Int { max(64 << 10, maxRecordBytes / 16) }

  /// The limits of a run that does not say otherwise: 16 MiB per record, 1 MiB per field, 65,536 fields per
  /// record, 1,000 attributes per XML element, 65,536 elements per XML record (a UBL invoice, one record,
  /// holds about a dozen per line).
  public static let standard = RecordLimits(
    maxRecordBytes: 16 << 20, maxFields: 65_536, maxAttributes: 1_000, maxChildElements: 65_536)

  public init(maxRecordBytes: Int, maxFields: Int, maxAttributes: Int, maxChildElements: Int) {
    self.maxRecordBytes = maxRecordBytes
    self.maxFields = maxFields
    self.maxAttributes = maxAttributes
    self.maxChildElements = maxChildElements
  }

  /// `4 GiB`, `16 MiB`, `1 MiB`, `512 KiB` or `100 bytes`: a byte count as a person reads it.
  static func text(ofBytes count: Int) -> String {
    if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
  }

  /// The message of a record longer than ``maxRecordBytes``.
  var recordTooLargeMessage: String {
    "the record is longer than \(Self.text(ofBytes: maxRecordBytes)) (--max-record-size); the file is refused "
      + "so that memory stays bounded"
  }

  /// The message of a field longer than ``maxFieldBytes``.
  var fieldTooLargeMessage: String {
    "a field of the record is longer than \(Self.text(ofBytes: maxFieldBytes)) (a sixteenth of --max-record-size); "
      + "the file is refused so that memory stays bounded"
  }

  /// The message of a record with more than ``maxFields`` fields.
  var tooManyFieldsMessage: String {
    "the record has more than \(maxFields) fields; the file is refused so that memory stays bounded"
  }

  /// The hint of every limit's file error.
  static let hint = "if the file is what you meant, raise the limit with --max-record-size BYTES (e.g. 64M, 1G)"
}
