/// What a format's pass 1 learned about a file that only the same format reads in pass 2, kept in
/// ``FileScan/details`` so that the scan itself stays format-neutral. Each format declares its own
/// type (``CSVScanDetails``, ``JSONScanDetails``, ``XMLScanDetails``) and a typed accessor on the scan.
protocol FormatScanDetails {
  /// Whether pass 1 left the file's reader open for pass 2: a stream read once, which cannot be read again.
  var holdsReader: Bool { get }
}

extension FormatScanDetails {
  var holdsReader: Bool { false }
}
