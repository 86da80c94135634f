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

  @Test("--amount-field 'Total, EUR' splits at its comma: the error says how to name the field with a comma")
  func namedFieldSplitAtComma() {
    let header = ["date", "Total, EUR", "currency"]
    #expect(throws: FieldMappingError.namedFieldMissing(role: .amount, name: "Total", header: header)) {
      _ = try resolve(header, names: FieldNames(amount: "Total"))
    }
    let error = FieldMappingError.namedFieldMissing(role: .amount, name: "Total", header: header)
    #expect(
      error.description
        == #"--amount-field "Total": no such field in the header ("date", "Total, EUR", "currency"); "#
        + #"--amount-field splits at commas (several amounts): for the field "Total, EUR" write --amount-field "Total\, EUR""#
    )
    // Only a field that starts with the name given gets the hint; other options do not split at commas.
    #expect(!FieldMappingError.namedFieldMissing(role: .amount, name: "Tot", header: header).description.contains("splits"))
    #expect(!FieldMappingError.namedFieldMissing(role: .from, name: "Total", header: header).description.contains("splits"))
  }

  @Test("a needed role without a field is an error; --to removes the need; a from-currency field is not needed")
  func missingRoles() throws {
    let firefly = ["Date", "Amount", "Account", "Counterparty", "Name", "Description"]
    // Without a from-currency field each record's amount may name its currency (`USD 12.50`): not a file error.
    #expect(throws: FieldMappingError.roleMissing(role: .to, header: firefly)) { _ = try resolve(firefly) }
    #expect(throws: FieldMappingError.roleMissing(role: .to, header: firefly)) { _ = try resolve(firefly, fixedFrom: true) }
    #expect(try resolve(firefly, fixedTo: true) == FieldMapping(amount: 1, from: nil, to: nil, date: 0))
    #expect(throws: FieldMappingError.namedFieldMissing(role: .from, name: "Ccy", header: firefly)) {
      _ = try resolve(firefly, names: FieldNames(from: "Ccy"), fixedTo: true)
    }
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

  // Issue 13: every spelling of a transaction-date name is the date field (camelCase, PascalCase, snake_case,
  // kebab-case, spaced, German). Before, `issueDate`, `Buchungsdatum`, `trade-date` … were not recognised and
  // every record was converted at the newest rates without a word.
  @Test(
    "date names in every spelling are recognised",
    arguments: [
      "issueDate", "IssueDate", "issue_date", "ISSUE-DATE", "bookingDate", "valueDate", "created_at", "Created At",
      "transaction_date", "Buchungsdatum", "Valutadatum", "Datum", "trade-date", "settlement date", "documentDate",
      "orderDate", "SaleDate", "purchase_date", "billingDate", "entry_date",
    ])
  func dateSpellings(name: String) throws {
    #expect(try resolve(["id", name, "amount", "currency", "to"]).date == 1)
  }

  @Test("names that are not a transaction's date are not taken for it")
  func notTheTransactionDate() throws {
    for name in ["updated_at", "updatedAt", "due_date", "birthday", "modified"] {
      #expect(try resolve(["id", name, "amount", "currency", "to"]).date == nil, "\(name)")
    }
  }

  @Test(
    "a name with date, time, day, datum or fecha looks like dates",
    arguments: [
      ("updated_at", true), ("dueDate", true), ("paid-time", true), ("BusinessDay", true), ("Lieferdatum", true),
      ("Fecha de pago", true),
      ("@posted_date", true), ("when", false), ("amount", false), ("id", false), ("note", false),
    ] as [(String, Bool)])
  func dateLikeNames(name: String, expected: Bool) {
    #expect(FieldMapping.looksLikeDateName(name) == expected)
  }

  @Test(
    "a value written like a date looks like dates; a bare number does not",
    arguments: [
      ("2024-03-01", true), (" 2024-03-01T10:00:00Z ", true), ("01/03/2024", true), ("1.3.2024", true),
      ("2024/03/01", true), ("20240301", false), ("12.50", false), ("INV-2024-01", false), ("USD", false),
      ("", false), ("31/31/2024", false), ("2024-03-01 rent", false),
    ] as [(String, Bool)])
  func dateLikeValues(text: String, expected: Bool) {
    #expect(FieldMapping.looksLikeDateValue(text) == expected)
  }

  @Test("the likely date field: by name first, else by its first non-empty value; never a field another role reads")
  func likelyDateField() {
    let names = ["id", "when", "amount", "updated", "currency"]
    let values = [["7"], ["2024-03-01"], ["12.50"], ["2024-03-02"], ["USD"]]
    #expect(FieldMapping.likelyDateField(names: names, values: values, taken: ["amount", "currency"]) == 3)
    let plain = ["id", "when", "amount", "currency"]
    #expect(FieldMapping.likelyDateField(names: plain, values: [["7"], ["2024-03-01"], ["1"], ["USD"]], taken: []) == 1)
    #expect(FieldMapping.likelyDateField(names: plain, values: [[], [], [], []], taken: []) == nil)
    #expect(FieldMapping.likelyDateField(names: plain, values: [], taken: []) == nil)
    // A field another role reads is no candidate, whatever its name.
    #expect(FieldMapping.likelyDateField(names: ["day_amount", "ccy"], values: [], taken: ["day_amount"]) == nil)
  }

  @Test(
    "YYYYMMDD values make a field look like dates only when every one seen is a day from 1970 to 2099",
    arguments: [
      (["20200102"], true), (["20200102", "19991231", " 20240229 "], true), (["10004711", "10004712"], false),
      (["20200102", "10004711"], false), (["20241301"], false), (["20230229"], false), (["19691231"], false),
      (["2020010"], false), (["202001020"], false), (["2020-01-02x"], false),
    ] as [([String], Bool)])
  func compactDates(values: [String], expected: Bool) {
    #expect(FieldMapping.likelyDateField(names: ["posted"], values: [values], taken: []) == (expected ? 0 : nil))
  }

  @Test(
    "a field looks like currency codes when every value seen is an ISO 4217 code in capitals or small letters",
    arguments: [
      (["USD"], true), (["USD", "eur", " CHF "], true), (["USD", "Usd"], false), (["USA", "DEU", "FRA"], false),
      (["US", "DE"], false), (["USD", "ABC"], false), (["the", "and"], false), ([], false),
    ] as [([String], Bool)])
  func currencyCodeValues(values: [String], expected: Bool) {
    #expect(FieldMapping.looksLikeCurrencyCodes(values) == expected)
    #expect(FieldMapping.likelyCurrencyField(names: ["x"], values: [values], taken: []) == (expected ? 0 : nil))
    #expect(FieldMapping.likelyCurrencyField(names: ["x"], values: [values], taken: ["x"]) == nil)
  }

  @Test(
    "currency field names in other spellings and languages are the from-currency's",
    arguments: [
      "ccy_code", "CcyCode", "Currency Code", "curr", "currency_iso", "Währung", "Waehrung", "Devise",
      "Moneda", "Divisa",
    ])
  func currencyNameSpellings(name: String) throws {
    let mapping = try FieldMapping.resolve(
      header: ["date", "amount", name, "to"], names: FieldNames(), fixedFrom: false, fixedTo: false)
    #expect(mapping.from == 2)
    #expect(
      FieldMapping.overriddenCurrencyFields(
        names: ["date", "amount", name], fieldNames: FieldNames(), fixedFrom: true, fixedTo: false
      ).map(\.index) == [2])
  }

  @Test("Valuta is no currency name (a value date in German exports, a currency in Italian ones)")
  func valutaIsNeither() throws {
    let mapping = try FieldMapping.resolve(
      header: ["amount", "Valuta", "to"], names: FieldNames(), fixedFrom: false, fixedTo: false)
    #expect(mapping.from == nil && mapping.date == nil)
    #expect(!FieldMapping.looksLikeDateName("Valuta"))
  }

  @Test("--from and --to pass over the currency field the file has; no option, no field, nothing passed over")
  func overriddenCurrencyFields() {
    let header = ["date", "amount", "currency", "to"]
    let both = FieldMapping.overriddenCurrencyFields(
      names: header, fieldNames: FieldNames(), fixedFrom: true, fixedTo: true)
    #expect(both.map(\.role) == [.from, .to])
    #expect(both.map(\.index) == [2, 3])
    let neither = FieldMapping.overriddenCurrencyFields(
      names: header, fieldNames: FieldNames(), fixedFrom: false, fixedTo: false)
    #expect(neither.isEmpty)
    let noTo = FieldMapping.overriddenCurrencyFields(
      names: ["date", "amount", "currency"], fieldNames: FieldNames(), fixedFrom: false, fixedTo: true)
    #expect(noTo.isEmpty, "the only currency field is the from-currency's")
    // XML attributes are matched without their `@`.
    let xml = FieldMapping.overriddenCurrencyFields(
      names: ["@amount", "@ccy", "date"], fieldNames: FieldNames(), fixedFrom: true, fixedTo: false)
    #expect(xml.map(\.index) == [1])
  }

  @Test("two columns naming one field are an error naming both and the option, never a silent choice")
  func duplicateColumns() throws {
    #expect(throws: FieldMappingError.ambiguousField(role: .amount, names: ["amount", "amount"], columns: [0, 2])) {
      _ = try resolve(["amount", "currency", "amount", "to", "date"])
    }
    #expect(throws: FieldMappingError.ambiguousField(role: .amount, names: ["amount", "Amount"], columns: [0, 3])) {
      _ = try resolve(["amount", "from", "to", "Amount"])
    }
    #expect(throws: FieldMappingError.ambiguousField(role: .from, names: ["Currency", "currency"], columns: [1, 2])) {
      _ = try resolve(["amount", "Currency", "currency", "to"])
    }
    // A name the user gave chooses the column that has it exactly; not one two columns have, nor one that is
    // only the same after normalization.
    #expect(try resolve(["amount", "from", "to", "Amount"], names: FieldNames(amount: "Amount")).amount == 3)
    #expect(try resolve(["amount", "from", "to", "Amount"], names: FieldNames(amount: "amount")).amount == 0)
    #expect(throws: FieldMappingError.ambiguousField(role: .amount, names: ["amount", "Amount"], columns: [0, 3])) {
      _ = try resolve(["amount", "from", "to", "Amount"], names: FieldNames(amount: "AMOUNT"))
    }
    #expect(throws: FieldMappingError.ambiguousField(role: .amount, names: ["total", "total"], columns: [0, 3])) {
      _ = try resolve(["total", "from", "to", "total"], names: FieldNames(amount: "total"))
    }
    // A column another role reads is not a rival.
    #expect(try resolve(["Currency", "amount", "currency"], names: FieldNames(to: "Currency")).from == 2)
    #expect(
      FieldMappingError.ambiguousField(role: .amount, names: ["amount", "Amount"], columns: [0, 3]).description
        == #"the header's columns "amount" (column 1) and "Amount" (column 4) both name the amount field; fxbatch does not pick one: choose one with --amount-field NAME, its exact name"#
    )
    #expect(
      FieldMappingError.ambiguousField(role: .amount, names: ["amount", "amount"], columns: [0, 2]).description
        == #"the header's columns "amount" (column 1) and "amount" (column 3) both name the amount field; fxbatch does not pick one: rename one of them (--amount-field NAME chooses a column by a name no other column has)"#
    )
  }
}
