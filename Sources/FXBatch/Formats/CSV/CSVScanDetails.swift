/// What pass 1 learned about a CSV file for pass 2.
struct CSVScanDetails: FormatScanDetails {
  /// The field delimiter.
  let delimiter: UInt8
  /// Pass 1 only found the part starts (their lines are unknown) and took the decimal mark from the first
  /// records; pass 2 reads the mark's evidence in every record and checks the decision is the same, else the
  /// file is read again in two full passes (``CSVFormat/convertCSV(_:context:quotes:standardOutput:)``).
  var isProvisional = false
  /// A stream read in one pass (``FileInput/readOnce``): the reader pass 1 opened, after the header, which pass 2
  /// goes on reading.
  var opened: OpenedCSV? = nil

  var holdsReader: Bool { opened != nil }
}

/// A CSV file opened and read up to its first record (``CSVScanDetails/opened``).
final class OpenedCSV {
  let reader: CSVReader
  let leadingBlankLines: [CSVRecord]
  let header: CSVRecord

  init(reader: CSVReader, leadingBlankLines: [CSVRecord], header: CSVRecord) {
    (self.reader, self.leadingBlankLines, self.header) = (reader, leadingBlankLines, header)
  }
}

extension FileScan {
  /// The CSV details of a CSV file's scan (a comma-delimited, settled scan for any other).
  var csv: CSVScanDetails {
    get { details as? CSVScanDetails ?? CSVScanDetails(delimiter: UInt8(ascii: ",")) }
    set { details = newValue }
  }
}
