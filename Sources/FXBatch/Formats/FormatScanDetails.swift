/// What a format's pass 1 learned about a file that only the same format reads in pass 2, kept in
/// ``FileScan/details`` so that the scan itself stays format-neutral. Each format declares its own
/// type (``CSVScanDetails``, ``JSONScanDetails``, ``XMLScanDetails``) and a typed accessor on the scan.
protocol FormatScanDetails {}
