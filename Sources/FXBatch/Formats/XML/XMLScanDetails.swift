/// What pass 1 learned about an XML document for pass 2.
struct XMLScanDetails: FormatScanDetails {
  /// The name of the record elements.
  let recordElement: String
  /// Set when pass 1 read the document with ``XMLSimpleScanner`` (pass 2 then does too, in parts from
  /// ``FileScan/partStarts``); `nil`: libxml2 reads it.
  var document: XMLScannedDocument? = nil
  /// A known document's choices (``XMLDocumentShape``), when one was recognized.
  var shaped: Shaped? = nil

  /// What a known document chose for a file.
  struct Shaped: Sendable {
    let fieldNames: FieldNames
    let dateFallbacks: [String]
    /// ``XMLFieldLocator/amountsInFirstCurrency``: the shape's own amounts (UBL's `TaxTotal`s).
    let amountsInFirstCurrency: Bool
    /// ``XMLDocumentShape/otherCurrencyFields``.
    let otherCurrencyFields: [String]
    /// For the summary: `recognized ISO 20022 camt.053.001.08: amount Amt, date BookgDt/Dt else ValDt/Dt`.
    let description: String
  }
}

extension FileScan {
  /// The XML details of an XML document's scan (`nil` for any other file).
  var xml: XMLScanDetails? {
    get { details as? XMLScanDetails }
    set { details = newValue }
  }
}
