@preconcurrency import CLibXML2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A kind of document fxbatch knows by its root element's namespace, with the records and fields it is read
/// with when no option says otherwise (docs/formats.md, "Known documents"):
///
/// | Document | Root, namespace | Records | Amount | Date |
/// | --- | --- | --- | --- | --- |
/// | ISO 20022 camt.052, camt.053, camt.054 | `Document`, `urn:iso:std:iso:20022:tech:xsd:camt.05[234].…` | `Ntry` | `Amt` (its `Ccy`) | `BookgDt/Dt` or `BookgDt/DtTm`, else `ValDt/Dt` or `ValDt/DtTm` |
/// | UBL 2.1 Invoice | `Invoice`, `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2` | the root | `LegalMonetaryTotal/PayableAmount` (its `currencyID`) | `IssueDate` |
/// | UBL 2.1 CreditNote | `CreditNote`, `…:CreditNote-2` | the root | `LegalMonetaryTotal/PayableAmount` | `IssueDate` |
struct XMLDocumentShape: Sendable, Equatable {
  /// The document as the summary names it: `ISO 20022 camt.053.001.08`, `UBL Invoice`.
  let name: String
  /// The record elements' qualified name as the document writes it.
  let recordElement: String
  /// The amount's path (an element whose currency attribute gives the from-currency).
  let amount: String
  /// The amount element's currency attribute, for the summary.
  let currencyAttribute: String
  /// The date's paths, the first a record has.
  let dates: [String]

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
        name: "ISO 20022 \(message)", recordElement: prefix + "Ntry", amount: "Amt", currencyAttribute: "Ccy",
        dates: ["BookgDt/Dt", "BookgDt/DtTm", "ValDt/Dt", "ValDt/DtTm"])
    }
    let ubl = "urn:oasis:names:specification:ubl:schema:xsd:"
    for kind in ["Invoice", "CreditNote"] where localName == kind && namespace == ubl + kind + "-2" {
      return XMLDocumentShape(
        name: "UBL \(kind)", recordElement: qualifiedName, amount: "LegalMonetaryTotal/PayableAmount",
        currencyAttribute: "currencyID", dates: ["IssueDate"])
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
  /// options alone (`nil`).
  ///
  /// - Returns: the options, the date fallbacks, and what the shape chose, for the summary
  ///   (`recognized ISO 20022 camt.053.001.08: amount Amt, date BookgDt/Dt else BookgDt/DtTm else …`).
  func apply(to options: BatchOptions) -> (options: BatchOptions, dateFallbacks: [String], description: String)? {
    if let element = options.recordElement, element != recordElement { return nil }
    var shaped = options
    shaped.recordElement = recordElement
    // ISO 20022 and UBL amounts are xsd:decimal: a decimal point, whatever the currency's minor units.
    if options.decimalMark == nil { shaped.decimalMark = .point }
    var chose: [String] = []
    if options.fieldNames.amount == nil {
      shaped.fieldNames.amount = amount
      let withCurrency = options.fixedFrom == nil && options.fieldNames.from == nil
      chose.append("amount \(amount)" + (withCurrency ? " and its @\(currencyAttribute)" : ""))
    }
    var fallbacks: [String] = []
    if options.fieldNames.date == nil {
      shaped.fieldNames.date = dates[0]
      fallbacks = Array(dates.dropFirst())
      chose.append("date " + dates.joined(separator: " else "))
    }
    return (shaped, fallbacks, "recognized \(name)" + (chose.isEmpty ? "" : ": " + chose.joined(separator: ", ")))
  }
}
