import Foundation
import Testing

@testable import FXBatch

/// The one table of recognised field names (``HeaderNames``, fxbatch issue 32): seven languages, compared without
/// case, accents, `_`, `-` and spaces, kept in step with its documentation.
@Suite("Header names")
struct HeaderNamesTests {
  private func resolve(_ header: [String]) throws(FieldMappingError) -> FieldMapping {
    try FieldMapping.resolve(header: header, names: FieldNames(), fixedFrom: false, fixedTo: false)
  }

  @Test(
    "the issue's headers in seven languages find every field",
    arguments: [
      (["Buchungsdatum", "Verwendungszweck", "Betrag", "Währung", "Ziel"], 2, 3, 4, 0),  // German
      (["Date opération", "Libellé", "Montant", "Devise", "Devise cible"], 2, 3, 4, 0),  // French
      (["Fecha", "Concepto", "Importe", "Moneda", "Moneda destino"], 2, 3, 4, 0),  // Spanish
      (["Data operazione", "Descrizione", "Importo", "Divisa", "Valuta di destinazione"], 2, 3, 4, 0),  // Italian
      (["Boekdatum", "Omschrijving", "Bedrag", "Munteenheid", "Doelvaluta"], 2, 3, 4, 0),  // Dutch
      (["Data de lançamento", "Descrição", "Valor", "Moeda", "Moeda de destino"], 2, 3, 4, 0),  // Portuguese
      (["DATUM", "BETRAG", "waehrung", "ZIEL_WAEHRUNG", "zielwahrung"], 1, 2, 4, 0),  // case and accents
    ] as [([String], Int, Int, Int, Int)])
  func languages(header: [String], amount: Int, from: Int, to: Int, date: Int) throws {
    #expect(try resolve(header) == FieldMapping(amount: amount, from: from, to: to, date: date))
  }

  @Test(
    "names compare without case, accents, spaces, _, - and .",
    arguments: [
      ("Währung", "wahrung"), ("WÄHRUNG", "wahrung"), ("Date opération", "dateoperation"),
      ("Fecha_de-Operación", "fechadeoperacion"),
      ("Data de lançamento", "datadelancamento"), ("Moneda destino", "monedadestino"), ("Amount", "amount"),
    ] as [(String, String)])
  func normalized(name: String, expected: String) {
    #expect(FieldMapping.normalizedName(name) == expected)
  }

  @Test("a name belongs to one field only, and the English names come first")
  func oneFieldPerName() {
    var owner: [String: FieldMapping.Role] = [:]
    for role in FieldMapping.Role.allCases {
      for name in role.synonyms {
        #expect(owner[name] == nil, "\(name) names both \(owner[name].map(\.rawValue) ?? "") and \(role.rawValue)")
        owner[name] = role
      }
    }
    #expect(FieldMapping.Role.amount.synonyms.first == "amount")
    #expect(FieldMapping.Role.from.synonyms.first == "from")
    #expect(HeaderNames.table.values.allSatisfy { $0.count == HeaderNames.languages.count })
    // Left out on purpose: a German value date, a JSON API's payload.
    #expect(!owner.keys.contains("valuta") && !owner.keys.contains("data"))
    // Nor a place: a travel export's destination.
    #expect(!owner.keys.contains("destino") && !owner.keys.contains("cible") && !owner.keys.contains("doel"))
  }

  @Test("two columns of one field in two spellings are refused, as before")
  func ambiguousHeader() {
    #expect(throws: FieldMappingError.ambiguousField(role: .from, names: ["Währung", "WAHRUNG"], columns: [1, 2])) {
      _ = try resolve(["Betrag", "Währung", "WAHRUNG", "to"])
    }
  }

  @Test("the summary line names the fields read when one was found by its name, never when all were given")
  func summaryFields() {
    var file = RunReport.File(input: "konto.csv")
    file.fields = ["amount": "Betrag", "from": "Währung", "date": "Buchungsdatum"]
    #expect(
      RunSummary.fieldsUsed(by: file, given: FieldNames()) == "fields: amount=Betrag, from=Währung, date=Buchungsdatum")
    #expect(
      RunSummary.fieldsUsed(by: file, given: FieldNames(amount: "Betrag"))
        == "fields: amount=Betrag, from=Währung, date=Buchungsdatum")
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames(amount: "Betrag", from: "Währung", date: "Buchungsdatum")) == nil)
    // Names that would read as the line's own punctuation, or hold control characters, are quoted.
    file.fields = ["amount": "a,b", "to": "x\u{1B}[2J"]
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames()) == #"fields: amount="a,b", to="x\u{1b}[2J""#)
    // No from-currency field and no --from: a converted record's from-currency was its amount's (`USD 12.50`).
    file.fields = ["amount": "Betrag", "date": "Datum"]
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames()) == "fields: amount=Betrag, date=Datum")
    file.counts.ok = 1
    #expect(
      RunSummary.fieldsUsed(by: file, given: FieldNames()) == "fields: amount=Betrag, from=(in the amount), date=Datum")
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames(), fixedFrom: true) == "fields: amount=Betrag, date=Datum")
    file.format = "json"
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames()) == "fields: amount=Betrag, date=Datum")
    // A known document's detail names its own paths.
    file.document = "recognized ISO 20022 camt.053.001.08: amount Amt"
    #expect(RunSummary.fieldsUsed(by: file, given: FieldNames()) == nil)
  }

  @Test("docs/fields-and-amounts.md lists every name of the table")
  func documented() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("docs/fields-and-amounts.md"), encoding: .utf8)
    for (role, languages) in HeaderNames.table {
      for name in languages.joined() {
        #expect(text.contains("`\(name)`"), "\(role.rawValue): \(name) is not documented")
      }
    }
  }
}
