@preconcurrency import CLibXML2
import Foundation

/// Parses the ECB reference-rate XML feed (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
/// `eurofxref-hist.xml` from https://www.ecb.europa.eu/stats/eurofxref/): a `gesmes:Envelope` whose `Cube`
/// elements (default namespace `http://www.ecb.int/vocabulary/2002-08-01/eurofxref`) carry a `time`
/// attribute per publication day and `currency` / `rate` attributes per currency, the rate in units of the
/// currency per 1 EUR.
///
/// Read with libxml2's streaming reader (`xmlTextReader`), so memory does not grow with the file; no network
/// access (`XML_PARSE_NONET`) and no entity substitution.
public enum ECBXMLFeed {
  /// Parses a whole feed.
  ///
  /// - Parameters:
  ///   - bytes: the document.
  ///   - path: the name used in errors.
  ///   - info: the source description the table carries.
  /// - Returns: a table with an EUR/currency pair per currency seen, days ascending; a currency missing on a
  ///   day has no rate that day.
  /// - Throws: ``RatesFileError`` for malformed XML (libxml2's message and position), a bad `time`, an unknown
  ///   currency, a rate that is not a positive decimal, a `Cube currency` outside a `Cube time`, a duplicate
  ///   day or currency, or a document without rates.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String, info: RateSourceInfo) throws(RatesFileError)
    -> RateTable
  {
    LibXML2.ensureInitialized()
    guard let base = bytes.baseAddress,
      let reader = base.withMemoryRebound(
        to: CChar.self, capacity: bytes.count,
        { pointer in
          xmlReaderForMemory(
            pointer, Int32(clamping: bytes.count), path, nil,
            Int32(
              XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_NOBLANKS.rawValue))
        })
    else { throw RatesFileError(path: path, line: 1, column: 1, message: "the file is empty") }
    defer { xmlFreeTextReader(reader) }
    LibXML2.quiet(reader)

    var columnByCurrency: [CurrencyCode: Int] = [:]
    var currencies: [CurrencyCode] = []
    // The cells as read (a history has 280,000), each with its row and column: a day without rates costs its
    // day only (``RateGrid/Builder``).
    var days: [CalendarDay] = []
    var cells = RateGrid.Builder()
    /// The columns seen on the current day.
    var seenInRow: Set<Int> = []
    var seenDays: Set<CalendarDay> = []
    var sawRoot = false

    func fail(_ message: String) -> RatesFileError {
      // The parser reads ahead of the reader (a small document is parsed whole), so its position is not the
      // offending element's. The element's own line is; libxml2 keeps no column for a node, hence column 1.
      // Element lines are capped at 65535 by libxml2: past that, the parser's (approximate) line is used.
      if let node = xmlTextReaderCurrentNode(reader) {
        let line = Int(xmlGetLineNo(node))
        if line > 0, line < 65535 { return RatesFileError(path: path, line: line, column: 1, message: message) }
      }
      return RatesFileError(
        path: path, line: Int(xmlTextReaderGetParserLineNumber(reader)),
        column: Int(xmlTextReaderGetParserColumnNumber(reader)), message: message)
    }
    // Read in place (no copy by libxml2): a history has 280,000 rates, each a short (inline) Swift string.
    func attribute(_ name: StaticString) -> String? {
      let found = name.withUTF8Buffer { name in
        name.withMemoryRebound(to: CChar.self) { xmlTextReaderMoveToAttribute(reader, $0.baseAddress) }
      }
      guard found == 1 else { return nil }
      defer { xmlTextReaderMoveToElement(reader) }
      return xmlTextReaderConstValue(reader).map { String(cString: $0) }
    }
    /// An attribute's bytes, in place (valid until the reader moves on).
    func attributeBytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
      let found = name.withUTF8Buffer { name in
        name.withMemoryRebound(to: CChar.self) { xmlTextReaderMoveToAttribute(reader, $0.baseAddress) }
      }
      guard found == 1 else { return nil }
      defer { xmlTextReaderMoveToElement(reader) }
      return xmlTextReaderConstValue(reader).map { UnsafeBufferPointer(start: $0, count: strlen($0)) }
    }
    /// Columns by the three letters of a currency code already checked.
    var columnByLetters: [UInt32: Int] = [:]
    func isCube(_ name: UnsafePointer<xmlChar>) -> Bool {
      name[0] == UInt8(ascii: "C") && name[1] == UInt8(ascii: "u") && name[2] == UInt8(ascii: "b")
        && name[3] == UInt8(ascii: "e") && name[4] == 0
    }

    while true {
      let status = xmlTextReaderRead(reader)
      if status == 0 { break }
      guard status == 1 else {
        if let (message, line, column) = LibXML2.lastErrorMessage() {
          throw RatesFileError(path: path, line: line, column: column, message: "malformed XML: \(message)")
        }
        throw fail("malformed XML")
      }
      let nodeType = xmlTextReaderNodeType(reader)
      // Entities could put anything into a rate; an ECB feed has no DTD, so none is accepted.
      if nodeType == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue) {
        throw fail("a DTD (<!DOCTYPE …>) is not accepted in an ECB feed")
      }
      if nodeType == Int32(XML_READER_TYPE_ELEMENT.rawValue), !sawRoot {
        sawRoot = true
        let root = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
        guard root == "Envelope" || root == "Cube" else {
          throw fail("the root element is <\(root)>, not the ECB's gesmes:Envelope (or a bare Cube)")
        }
      }
      guard nodeType == Int32(XML_READER_TYPE_ELEMENT.rawValue),
        let localName = xmlTextReaderConstLocalName(reader), isCube(localName)
      else { continue }
      if let time = attribute("time") {
        guard let day = CalendarDay(iso8601: time) else {
          throw fail("Cube time=\(RowError.quoted(time)) is not a YYYY-MM-DD date")
        }
        guard seenDays.insert(day).inserted else { throw fail("day \(day) appears twice") }
        guard days.count < RateTable.maximumDays else { throw fail("\(day): \(RateTable.tooManyDays)") }
        days.append(day)
        seenInRow.removeAll(keepingCapacity: true)
      }
      if let currencyBytes = attributeBytes("currency") {
        // Read from bytes: a history has 280,000 of these; a code seen before is not checked again.
        let letters =
          currencyBytes.count == 3
          ? UInt32(currencyBytes[0]) << 16 | UInt32(currencyBytes[1]) << 8 | UInt32(currencyBytes[2]) : nil
        let column: Int
        if let letters, let known = columnByLetters[letters], !days.isEmpty {
          column = known
        } else {
          let currencyText = String(decoding: currencyBytes, as: UTF8.self)
          guard !days.isEmpty else {
            throw fail("Cube currency=\(RowError.quoted(currencyText)) is not inside a Cube time=…")
          }
          guard let code = CurrencyCode(currencyText) else {
            throw fail("\(RowError.quoted(currencyText)) is not an ISO 4217 currency code")
          }
          if let known = columnByCurrency[code] {
            column = known
          } else {
            column = currencies.count
            columnByCurrency[code] = column
            currencies.append(code)
          }
          if let letters { columnByLetters[letters] = column }
        }
        let code = currencies[column]
        let rateBytes = attributeBytes("rate")
        guard let rateBytes,
          let rate = ExactDecimal(plainUTF8: rateBytes)
            ?? ExactDecimal(String(decoding: rateBytes, as: UTF8.self).trimmingWhitespace),
          rate.significand > 0
        else {
          let text = rateBytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
          throw fail("the \(code) rate \(RowError.quoted(text)) is not a positive decimal")
        }
        guard seenInRow.insert(column).inserted else { throw fail("currency \(code) appears twice on \(days[days.count - 1])") }
        cells.append(row: days.count - 1, column: column, value: rate)
      }
    }
    guard !days.isEmpty, !currencies.isEmpty else {
      throw fail("no rates found (expected ECB `Cube time=… / Cube currency=… rate=…` elements)")
    }
    // Rows ascending by day (the feed lists the newest first).
    let order = days.indices.sorted { days[$0] < days[$1] }
    var rowOf = [Int](repeating: 0, count: days.count)
    for (position, row) in order.enumerated() { rowOf[row] = position }
    cells.renumberRows(rowOf)
    var table = RateTable(
      info: info, pairs: currencies.map { CurrencyPair(base: .euro, quote: $0) }, days: order.map { days[$0] },
      grid: cells.grid(rows: days.count, width: currencies.count))
    // The ECB's own layout: its rates, first published on 1999-01-04.
    table.coverage.firstPublication = ECBCoverage.firstDay
    return table
  }
}
