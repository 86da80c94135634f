@preconcurrency import CLibXML2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A kind of document fxbatch knows by its root element's namespace, with the records and fields it is read
/// with when no option says otherwise (docs/formats.md, "Known documents"):
///
/// | Document | Root, namespace | Records | Amounts | Date |
/// | --- | --- | --- | --- | --- |
/// | ISO 20022 camt.052, camt.053, camt.054 | `Document`, `urn:iso:std:iso:20022:tech:xsd:camt.05[234].…` | `Ntry` | `Amt` (its `Ccy`; one amount, `fx_converted`) | `BookgDt/Dt` or `BookgDt/DtTm`, else `ValDt/Dt` or `ValDt/DtTm` |
/// | UBL 2.1 Invoice | `Invoice`, `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2` | the root | `PayableAmount=LegalMonetaryTotal/PayableAmount` (its `currencyID`), `TaxAmount=TaxTotal/TaxAmount` | `IssueDate` |
/// | UBL 2.1 CreditNote | `CreditNote`, `…:CreditNote-2` | the root | as an Invoice | `IssueDate` |
///
/// A UBL document may have two `TaxTotal`s (EN 16931: the second in the tax currency, `TaxCurrencyCode`); the
/// tax amount is the one in the payable amount's currency (``XMLFieldLocator``'s `amountsInFirstCurrency`).
struct XMLDocumentShape: Sendable, Equatable {
  /// The document as the summary names it: `ISO 20022 camt.053.001.08`, `UBL Invoice`.
  let name: String
  /// The record elements' qualified name as the document writes it.
  let recordElement: String
  /// The amounts' paths, the first an element whose currency attribute gives the from-currency; one amount
  /// (camt) is `fx_converted`, several (UBL) `fx_converted_NAME`.
  let amounts: [AmountField]
  /// The amount element's currency attribute, for the summary.
  let currencyAttribute: String
  /// The date's paths, the first a record has.
  let dates: [String]
  /// Whether an amount path after the first that matches several elements is read from the one in the first
  /// amount's currency (UBL's `TaxTotal`s, one in the document's currency and one in the tax currency).
  var amountsInFirstCurrency = false
  /// Local names of fields that hold a currency code the document uses for something else than its amounts
  /// (UBL's `TaxCurrencyCode`, the currency of a second `TaxTotal`): not a currency `--to` would pass over.
  var otherCurrencyFields: [String] = []

  /// The shape of a document, from its root element; `nil` for a document fxbatch does not know.
  ///
  /// - Parameters:
  ///   - qualifiedName: the root's name as written (`Document`, `ns2:Document`).
  ///   - localName: its local name.
  ///   - namespace: its namespace name.
  static func recognize(qualifiedName: String, localName: String, namespace: String) -> XMLDocumentShape? {
    let prefix = qualifiedName.count > localName.count ? String(qualifiedName.dropLast(localName.count)) : ""
    let iso = "urn:iso:std:iso:20022:tech:xsd:"
    if localName == "Document", namespace.hasPrefix(iso) {
      let message = String(namespace.dropFirst(iso.count))
      guard ["camt.052.", "camt.053.", "camt.054."].contains(where: { message.hasPrefix($0) }) else { return nil }
      return XMLDocumentShape(
        name: "ISO 20022 \(message)", recordElement: prefix + "Ntry", amounts: [AmountField(path: "Amt")],
        currencyAttribute: "Ccy",
        dates: ["BookgDt/Dt", "BookgDt/DtTm", "ValDt/Dt", "ValDt/DtTm"])
    }
    let ubl = "urn:oasis:names:specification:ubl:schema:xsd:"
    for kind in ["Invoice", "CreditNote"] where localName == kind && namespace == ubl + kind + "-2" {
      return XMLDocumentShape(
        name: "UBL \(kind)", recordElement: qualifiedName,
        amounts: [
          AmountField(path: "LegalMonetaryTotal/PayableAmount"), AmountField(path: "TaxTotal/TaxAmount"),
        ], currencyAttribute: "currencyID", dates: ["IssueDate"], amountsInFirstCurrency: true,
        otherCurrencyFields: [
          "TaxCurrencyCode", "PricingCurrencyCode", "PaymentCurrencyCode", "PaymentAlternativeCurrencyCode",
        ])
    }
    return nil
  }

  /// The shape of a file, from its root element read by libxml2 from the file's first 64 KiB; `nil` for a
  /// document fxbatch does not know, one with a DTD (refused later) or in a UTF-16 encoding.
  static func recognize(path: String) -> XMLDocumentShape? {
    guard let prolog = try? XMLProlog.read(path: path), prolog.documentType == nil,
      prolog.encoding.form == .asciiCompatible
    else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var head = [UInt8](repeating: 0, count: 64 << 10)
    let count = FileBytes.read(from: descriptor, into: &head, fileOffset: 0)
    close(descriptor)
    guard count > 0 else { return nil }
    LibXML2.ensureInitialized()
    let found: (String, String, String)? = head.withUnsafeBufferPointer { bytes in
      guard let start = bytes.baseAddress,
        let reader = start.withMemoryRebound(
          to: CChar.self, capacity: count,
          { start in
            xmlReaderForMemory(start, Int32(count), nil, nil, XMLRecordReader.options)
          })
      else { return nil }
      defer { xmlFreeTextReader(reader) }
      LibXML2.quiet(reader)
      while xmlTextReaderRead(reader) == 1 {
        guard xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) else { continue }
        guard let name = xmlTextReaderConstName(reader), let local = xmlTextReaderConstLocalName(reader),
          let namespace = xmlTextReaderConstNamespaceUri(reader)
        else { return nil }
        return (String(cString: name), String(cString: local), String(cString: namespace))
      }
      return nil
    }
    guard let (name, local, namespace) = found else { return nil }
    return recognize(qualifiedName: name, localName: local, namespace: namespace)
  }

  /// The run's options for a file of this shape: each choice the options leave open (the record element, the
  /// amount and date fields) is the shape's. A `--record-element` of another element leaves the file to the
  /// options alone (`nil`). `--amount-field` replaces the shape's whole list of amounts.
  ///
  /// - Returns: the options, the date fallbacks, and what the shape chose, for the summary
  ///   (`recognized ISO 20022 camt.053.001.08: amount Amt, date BookgDt/Dt else BookgDt/DtTm else …`,
  ///   `recognized UBL Invoice: amounts LegalMonetaryTotal/PayableAmount and TaxTotal/TaxAmount, from-currency
  ///   LegalMonetaryTotal/PayableAmount/@currencyID (of several, the one in that currency), date IssueDate`),
  ///   and whether the locator reads an amount matching several elements in the first amount's currency
  ///   (the shape's own amounts only: a path `--amount-field` gives that matches twice stays `invalid_record`).
  func apply(to options: BatchOptions) -> (
    options: BatchOptions, dateFallbacks: [String], amountsInFirstCurrency: Bool, description: String
  )? {
    if let element = options.recordElement, element != recordElement { return nil }
    var shaped = options
    shaped.recordElement = recordElement
    // ISO 20022 and UBL amounts are xsd:decimal: a decimal point, whatever the currency's minor units.
    if options.decimalMark == nil { shaped.decimalMark = .point }
    var chose: [String] = []
    var inFirstCurrency = false
    if options.fieldNames.amount == nil {
      inFirstCurrency = amountsInFirstCurrency
      let names = options.fieldNames
      shaped.fieldNames = FieldNames(amounts: amounts, from: names.from, to: names.to, date: names.date)
      let withCurrency = options.fixedFrom == nil && options.fieldNames.from == nil
      if amounts.count == 1 {
        chose.append("amount \(amounts[0].path)" + (withCurrency ? " and its @\(currencyAttribute)" : ""))
      } else {
        chose.append(
          "amounts " + amounts.map(\.path).joined(separator: " and ")
            + (withCurrency ? ", from-currency \(amounts[0].path)/@\(currencyAttribute)" : "")
            + (amountsInFirstCurrency
              ? " (of several, the one in " + (withCurrency ? "that currency)" : "\(amounts[0].path)'s @\(currencyAttribute))")
              : ""))
      }
    }
    var fallbacks: [String] = []
    if options.fieldNames.date == nil {
      shaped.fieldNames.date = dates[0]
      fallbacks = Array(dates.dropFirst())
      chose.append("date " + dates.joined(separator: " else "))
    }
    let description = "recognized \(name)" + (chose.isEmpty ? "" : ": " + chose.joined(separator: ", "))
    return (shaped, fallbacks, inFirstCurrency, description)
  }
}
