import Testing

@testable import FXBatch

@Suite("FieldMapping")
struct FieldMappingTests {
  private func resolve(
    _ header: [String], names: FieldNames = FieldNames(), fixedFrom: Bool = false, fixedTo: Bool = false
  ) throws(FieldMappingError) -> FieldMapping {
    try FieldMapping.resolve(header: header, names: names, fixedFrom: fixedFrom, fixedTo: fixedTo)
  }

  @Test(
    "header names are reduced before matching",
    arguments: [
      ("Target_Currency", "targetcurrency"), ("Value Date", "valuedate"), ("fx-rate.date", "fxratedate"), ("AMOUNT", "amount"),
      ("\tCcy ", "ccy"),
    ] as [(String, String)])
  func normalizedName(name: String, expected: String) {
    #expect(FieldMapping.normalizedName(name) == expected)
  }

  @Test(
    "synonyms find the fields, case-insensitively",
    arguments: [
      (["Amount", "Currency", "Target Currency", "Date"], 0, 1, 2, 3),
      (["value", "source_currency", "target_currency"], 0, 1, 2, nil),
      (["DATE", "TO", "FROM", "AMOUNT"], 3, 2, 1, 0),
      (["Booking Date", "Total", "CCY", "Convert To", "Note"], 1, 2, 3, 0),
      (["id", "amt", "base", "quote", "value_date"], 1, 2, 3, 4),
    ] as [([String], Int, Int, Int, Int?)])
  func synonyms(header: [String], amount: Int, from: Int, to: Int, date: Int?) throws {
    #expect(try resolve(header) == FieldMapping(amount: amount, from: from, to: to, date: date))
  }

  @Test("fields the user names win, whatever their names")
  func namedFields() throws {
    let names = FieldNames(amount: "betrag", from: "Währung", to: "ZIEL", date: "datum")
    let mapping = try resolve(["Datum", "Betrag", "Währung", "Ziel"], names: names)
    #expect(mapping == FieldMapping(amount: 1, from: 2, to: 3, date: 0))
  }

  @Test("a synonym never takes a field the user named for another role")
  func namedFieldIsNotStolen() throws {
    // `currency` is a from-synonym listed before `base`, but the user named it as the to-field.
    let mapping = try resolve(["Amount", "Base", "Currency"], names: FieldNames(to: "currency"))
    #expect(mapping == FieldMapping(amount: 0, from: 1, to: 2, date: nil))
  }

  @Test("a named field missing from the header is an error naming the option")
  func namedFieldMissing() {
    let header = ["amount", "from", "to"]
    #expect(throws: FieldMappingError.namedFieldMissing(role: .amount, name: "Betrag", header: header)) {
      _ = try resolve(header, names: FieldNames(amount: "Betrag"))
    }
    let error = FieldMappingError.namedFieldMissing(role: .amount, name: "Betrag", header: header)
    #expect(error.description == #"--amount-field "Betrag": no such field in the header ("amount", "from", "to")"#)
  }

  @Test("a needed role without a field is an error; --from/--to remove the need")
  func missingRoles() throws {
    let firefly = ["Date", "Amount", "Account", "Counterparty", "Name", "Description"]
    #expect(throws: FieldMappingError.roleMissing(role: .from, header: firefly)) { _ = try resolve(firefly) }
    #expect(throws: FieldMappingError.roleMissing(role: .to, header: firefly)) { _ = try resolve(firefly, fixedFrom: true) }
    #expect(try resolve(firefly, fixedFrom: true, fixedTo: true) == FieldMapping(amount: 1, from: nil, to: nil, date: 0))

    let noAmount = ["from", "to", "date"]
    #expect(throws: FieldMappingError.roleMissing(role: .amount, header: noAmount)) { _ = try resolve(noAmount) }
    #expect(FieldMappingError.roleMissing(role: .amount, header: noAmount).description.hasSuffix("use --amount-field NAME"))
    #expect(
      FieldMappingError.roleMissing(role: .to, header: noAmount).description.hasSuffix("use --to-field NAME or --to CODE"))
  }

  @Test("the date field is optional")
  func dateIsOptional() throws {
    #expect(try resolve(["amount", "from", "to"]).date == nil)
  }
}
