import Testing

@testable import FXBatch

/// The documents fxbatch knows by their root element's namespace (``XMLDocumentShape``).
@Suite("XML known documents")
struct XMLDocumentShapeTests {
  @Test(arguments: [
    ("Document", "Document", "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08", "ISO 20022 camt.053.001.08", "Ntry"),
    ("Document", "Document", "urn:iso:std:iso:20022:tech:xsd:camt.052.001.02", "ISO 20022 camt.052.001.02", "Ntry"),
    ("ns2:Document", "Document", "urn:iso:std:iso:20022:tech:xsd:camt.054.001.08", "ISO 20022 camt.054.001.08", "ns2:Ntry"),
    ("Invoice", "Invoice", "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", "UBL Invoice", "Invoice"),
    ("ubl:Invoice", "Invoice", "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", "UBL Invoice", "ubl:Invoice"),
    ("CreditNote", "CreditNote", "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", "UBL CreditNote", "CreditNote"),
  ])
  func knownRoots(name: String, local: String, namespace: String, document: String, records: String) throws {
    let shape = try #require(XMLDocumentShape.recognize(qualifiedName: name, localName: local, namespace: namespace))
    #expect(shape.name == document)
    #expect(shape.recordElement == records)
  }

  @Test(arguments: [
    ("Document", "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"),
    ("Document", "urn:iso:std:iso:20022:tech:xsd:camt.056.001.08"),
    ("Stmt", "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"),
    ("Order", "urn:oasis:names:specification:ubl:schema:xsd:Order-2"),
    ("Invoice", "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"),
    ("Invoice", "urn:example:invoice"),
  ])
  func otherRootsAreNotKnown(local: String, namespace: String) {
    #expect(XMLDocumentShape.recognize(qualifiedName: local, localName: local, namespace: namespace) == nil)
  }

  /// Options override the shape's choices; another record element leaves the file to the options alone.
  @Test func optionsOverrideTheShape() throws {
    let shape = try #require(
      XMLDocumentShape.recognize(
        qualifiedName: "Document", localName: "Document", namespace: "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"))
    var options = BatchOptions(today: try day("2026-11-29"))
    let plain = try #require(shape.apply(to: options))
    #expect(plain.options.recordElement == "Ntry")
    #expect(plain.options.fieldNames == FieldNames(amount: "Amt", date: "BookgDt/Dt"))
    #expect(plain.dateFallbacks == ["BookgDt/DtTm", "ValDt/Dt", "ValDt/DtTm"])
    options.fieldNames = FieldNames(amount: "NtryDtls/TxDtls/Amt", from: "NtryDtls/TxDtls/Amt/@Ccy")
    let overridden = try #require(shape.apply(to: options))
    #expect(overridden.options.fieldNames.amount == "NtryDtls/TxDtls/Amt")
    #expect(overridden.description == "recognized ISO 20022 camt.053.001.08: date BookgDt/Dt else BookgDt/DtTm else ValDt/Dt else ValDt/DtTm")
    options.recordElement = "Bal"
    #expect(shape.apply(to: options) == nil)
  }

  /// A UBL document's amounts: PayableAmount (its currencyID the from-currency) and TaxAmount, read in the
  /// payable amount's currency when there are two TaxTotals; `--amount-field` replaces the whole list and the
  /// currency rule with it. A camt entry keeps its one amount.
  @Test func ublConvertsPayableAndTaxAmounts() throws {
    let shape = try #require(
      XMLDocumentShape.recognize(
        qualifiedName: "Invoice", localName: "Invoice", namespace: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"))
    var options = BatchOptions(today: try day("2026-11-29"))
    let plain = try #require(shape.apply(to: options))
    #expect(
      plain.options.fieldNames
        == FieldNames(
          amounts: [
            AmountField(name: "PayableAmount", path: "LegalMonetaryTotal/PayableAmount"),
            AmountField(name: "TaxAmount", path: "TaxTotal/TaxAmount"),
          ], date: "IssueDate"))
    #expect(plain.amountsInFirstCurrency)
    #expect(
      plain.description
        == "recognized UBL Invoice: amounts LegalMonetaryTotal/PayableAmount and TaxTotal/TaxAmount, from-currency "
        + "LegalMonetaryTotal/PayableAmount/@currencyID (of several, the one in that currency), date IssueDate")
    options.fixedFrom = CurrencyCode("EUR")
    #expect(
      try #require(shape.apply(to: options)).description
        == "recognized UBL Invoice: amounts LegalMonetaryTotal/PayableAmount and TaxTotal/TaxAmount (of several, the one "
        + "in LegalMonetaryTotal/PayableAmount's @currencyID), date IssueDate")
    options.fixedFrom = nil
    options.fieldNames = FieldNames(amounts: [AmountField(path: "LegalMonetaryTotal/TaxExclusiveAmount")])
    let overridden = try #require(shape.apply(to: options))
    #expect(overridden.options.fieldNames.amount == "LegalMonetaryTotal/TaxExclusiveAmount")
    #expect(overridden.options.fieldNames.amounts.isEmpty)
    #expect(!overridden.amountsInFirstCurrency)
    #expect(overridden.description == "recognized UBL Invoice: date IssueDate")
    #expect(shape.otherCurrencyFields.contains("TaxCurrencyCode"))

    let camt = try #require(
      XMLDocumentShape.recognize(
        qualifiedName: "Document", localName: "Document", namespace: "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"))
    let entry = try #require(camt.apply(to: BatchOptions(today: try day("2026-11-29"))))
    #expect(entry.options.fieldNames.amounts.isEmpty && !entry.amountsInFirstCurrency)
  }
}
