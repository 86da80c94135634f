/// What pass 1 learned about a JSON document for pass 2.
struct JSONScanDetails: FormatScanDetails {
  /// Where pass 1's byte-level scan found the records array (pass 2 then reads it so, in parts).
  let array: JSONArrayExtent
}

extension FileScan {
  /// The records array a byte-level pass 1 found in a JSON document; `nil`: the general path reads the file.
  var jsonArray: JSONArrayExtent? {
    get { (details as? JSONScanDetails)?.array }
    set { details = newValue.map(JSONScanDetails.init(array:)) }
  }
}
