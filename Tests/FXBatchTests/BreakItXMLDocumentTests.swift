import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Defects found by trying to break the known XML documents (issue 31) with real-world files.
@Suite("break it: XML known documents")
struct BreakItXMLDocumentTests {
  /// ISO 20022 and UBL amounts are `xsd:decimal`: a decimal point, never a comma or a thousands separator. A
  /// statement in a three-decimal currency (KWD, BHD, OMR) whose amounts all read `1.234` was refused as
  /// "decimal mark undecided"; a known document reads a decimal point unless `--decimal-separator` says otherwise.
  @Test func aKnownDocumentsAmountsHaveADecimalPoint() throws {
    let shape = try #require(
      XMLDocumentShape.recognize(
        qualifiedName: "Document", localName: "Document", namespace: "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"))
    var options = BatchOptions(today: try day("2026-11-29"))
    #expect(try #require(shape.apply(to: options)).options.decimalMark == .point)
    options.decimalMark = .comma
    #expect(try #require(shape.apply(to: options)).options.decimalMark == .comma)
  }

  // 1.234 KWD on 2024-03-14 at EUR/KWD 0.4: 1.234 / 0.4 = 3.085 → 3.09 (half-up); 310.500 KWD on 2024-03-15 at
  // EUR/KWD 0.5 = 621.00.
  @Test func aThreeDecimalStatementConvertsWithoutOptions() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(
      "rates.csv", "date,base,quote,rate\n2024-03-14,EUR,KWD,0.4\n2024-03-15,EUR,KWD,0.5\n")
    _ = try directory.write(
      "kwd.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
      <Ntry><Amt Ccy="KWD">1.234</Amt><BookgDt><Dt>2024-03-14</Dt></BookgDt></Ntry>
      <Ntry><Amt Ccy="KWD">310.500</Amt><BookgDt><Dt>2024-03-15</Dt></BookgDt></Ntry>
      </Stmt></BkToCstmrStmt></Document>

      """)
    let result = try cli.run(
      ["convert", "--rates", "rates.csv", "--to", "EUR", "-o", "-", "kwd.xml"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#"converted="3.09" currency="EUR""#))
    #expect(result.standardOutput.contains(#"converted="621.00" currency="EUR""#))
  }
}
