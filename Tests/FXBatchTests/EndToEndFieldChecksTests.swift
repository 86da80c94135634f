import FXBatchTestSupport
import Foundation
import Testing

/// Issue 13, "silent wrong results": a run never passes over a file's fields without saying so. A date field in
/// any spelling is read; a field that looks like dates when none is recognised refuses the file (unless `--date`
/// or `--undated` says what to do); `--from`/`--to` on a file that has that currency field refuse it (unless
/// `--override-currency-fields`). Every format, through the built CLI.
///
/// Expected values, by hand from eurofxref-hist.csv: 2024-03-01 EUR/USD 1.0813, so 100 USD→EUR
/// = 100 / 1.0813 = 92.4812… → 92.48; at the newest day of the embedded rates the day is 2026-10-30.
@Suite("fxbatch end to end: fields are never passed over silently")
struct EndToEndFieldChecksTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The formats, each with its file extension.
  enum Layout: String, CaseIterable, CustomTestStringConvertible {
    case csv, jsonl, json, xml

    var testDescription: String { rawValue }

    /// A file of one record holding `fields` (all values text), in this format.
    func file(_ fields: [(name: String, value: String)]) -> String {
      func object() -> String {
        "{" + fields.map { "\"\($0.name)\": \"\($0.value)\"" }.joined(separator: ", ") + "}"
      }
      switch self {
      case .csv:
        return fields.map(\.name).joined(separator: ",") + "\n" + fields.map(\.value).joined(separator: ",") + "\n"
      case .jsonl: return object() + "\n"
      case .json: return "[\n  " + object() + "\n]\n"
      case .xml:
        let children = fields.map { "<\($0.name)>\($0.value)</\($0.name)>" }.joined()
        return "<records>\n  <record>\(children)</record>\n</records>\n"
      }
    }
  }

  /// One record: 100 USD to EUR on 2024-03-01, the date in a field named `dateName`.
  static func record(dateName: String, date: String = "2024-03-01") -> [(name: String, value: String)] {
    [("id", "P-1"), (dateName, date), ("amount", "100"), ("currency", "USD"), ("to", "EUR")]
  }

  /// Writes `fields` as `in.<format>` into a new directory and runs `fxbatch convert` on it with `options`.
  ///
  /// - Returns: the run and the annotated copy's text (`nil` when none was written).
  func convert(_ layout: Layout, _ fields: [(name: String, value: String)], options: [String] = []) throws -> (
    CLIRunner.Result, String?
  ) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(layout.file(fields), named: "in.\(layout.rawValue)")
    let result = try cli.run(["convert", "-q"] + options + ["in.\(layout.rawValue)"], in: directory.url)
    let output = try? String(
      contentsOf: directory.url.appendingPathComponent("in.converted.\(layout.rawValue)"), encoding: .utf8)
    return (result, output)
  }

  // Before: none of these names was a date field, so the record got the rates of 2026-10-30, status ok, exit 0.
  @Test(
    "a date field in any spelling gives each record its own day",
    arguments: Layout.allCases, ["issueDate", "IssueDate", "Buchungsdatum", "trade-date", "settlementDate"])
  func dateSpellings(layout: Layout, name: String) throws {
    let (result, output) = try convert(layout, Self.record(dateName: name))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(output?.contains("92.48") == true, "100 / 1.0813 on 2024-03-01: \(output ?? "no output")")
    #expect(output?.contains("2026-10-30") == false)
  }

  // Before: exit 0, every record at the rates of 2026-10-30.
  @Test(
    "a field that looks like dates, when none is recognised, refuses the file and names the fixes",
    arguments: Layout.allCases,
    [("updatedAt", "its name says so"), ("when", #"its value "2024-03-01" reads as a date"#)])
  func dateLikeFieldRefusesTheFile(layout: Layout, field: (name: String, evidence: String)) throws {
    let (result, output) = try convert(layout, Self.record(dateName: field.name))
    #expect(result.status == 2)
    #expect(output == nil, "nothing is written for a refused file")
    #expect(
      result.standardError.contains(
        "error: no date field is recognised, but the field \"\(field.name)\" looks like dates (\(field.evidence));"
          + " without a date every record would be converted at the newest rates"), "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "hint: use --date-field \(field.name) to read each record's date from it, --date YYYY-MM-DD to convert"
          + " every record on that day, or --undated to convert every record at the newest rates"))
  }

  /// Runs `fxbatch convert` with `options` on `text` written as `name`.
  ///
  /// - Returns: the run and the annotated copy's text (`nil` when none was written).
  func convert(text: String, named name: String, options: [String] = []) throws -> (CLIRunner.Result, String?) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(text, named: name)
    let result = try cli.run(["convert", "-q"] + options + [name], in: directory.url)
    let (stem, ext) = (name.split(separator: ".").first ?? "", name.split(separator: ".").last ?? "")
    let output = try? String(
      contentsOf: directory.url.appendingPathComponent("\(stem).converted.\(ext)"), encoding: .utf8)
    return (result, output)
  }

  /// Files whose first record's `posted` is empty, missing or null, and a later one's a date (break13 d2.csv,
  /// d3.json, d4.jsonl, d5.xml, late.csv): name and text.
  static let laterDates: [(String, String)] = {
    let late: String = (0..<3000).map { (index: Int) -> String in "\(index),,10,USD,EUR\n" }.joined()
    let lateLines: String = (0..<3000).map { (index: Int) -> String in
      #"{"id":\#(index),"posted":"","amount":1,"currency":"USD","to":"EUR"}"# + "\n"
    }.joined()
    let json = #"[{"amount":1,"currency":"USD","to":"EUR"},{"posted":"2020-01-02","amount":1,"currency":"USD","to":"EUR"}]"#
    let lines =
      #"{"amount":1,"currency":"USD","to":"EUR","posted":null}"# + "\n"
      + #"{"posted":"2020-01-02","amount":1,"currency":"USD","to":"EUR"}"# + "\n"
    let xml =
      "<r><o><amount>1</amount><currency>USD</currency><to>EUR</to><posted></posted></o>"
      + "<o><amount>1</amount><currency>USD</currency><to>EUR</to><posted>2020-01-02</posted></o></r>"
    return [
      ("d2.csv", "id,posted,amount,currency,to\n1,,10,USD,EUR\n2,2020-01-02,10,USD,EUR\n"),
      ("d3.json", json), ("d4.jsonl", lines), ("d5.xml", xml),
      ("late.csv", "id,posted,amount,currency,to\n" + late + "9999,2020-01-02,10,USD,EUR\n"),
      ("late.jsonl", lateLines + #"{"id":9999,"posted":"2020-01-02","amount":1,"currency":"USD","to":"EUR"}"# + "\n"),
    ]
  }()

  // Before: exit 0, every record at the newest rates: only the first record's value was looked at, and it was
  // empty, missing or null.
  @Test(
    "a field whose first non-empty value reads as a date refuses the file, however many records come before",
    arguments: laterDates)
  func laterDateLikeValueRefusesTheFile(name: String, text: String) throws {
    let (result, output) = try convert(text: text, named: name)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(output == nil, "nothing is written for a refused file")
    #expect(
      result.standardError.contains(
        #"error: no date field is recognised, but the field "posted" looks like dates (its value "2020-01-02" reads"#
          + " as a date)"), "\(result.standardError)")
  }

  // Before: exit 0, every record at the newest rates (fxbatch reads 20200102 as a date, the check did not).
  @Test("a field of YYYYMMDD dates refuses the file", arguments: Layout.allCases)
  func compactDatesRefuseTheFile(layout: Layout) throws {
    let (result, output) = try convert(layout, Self.record(dateName: "posted", date: "20240301"))
    #expect(result.status == 2, "\(result.standardError)")
    #expect(output == nil)
    #expect(
      result.standardError.contains(
        #"the field "posted" looks like dates (its values "20240301" read as YYYYMMDD dates)"#),
      "\(result.standardError)")
    let (named, namedOutput) = try convert(
      layout, Self.record(dateName: "posted", date: "20240301"), options: ["--date-field", "posted"])
    #expect(named.status == 0, "\(named.standardError)")
    #expect(namedOutput?.contains("92.48") == true, "100 / 1.0813 on 2024-03-01: \(namedOutput ?? "no output")")
  }

  @Test(
    "an 8-digit id field and a country-code field are neither dates nor currencies", arguments: Layout.allCases)
  func idsAndCountriesAreNotEvidence(layout: Layout) throws {
    let fields: [(name: String, value: String)] = [
      ("invoice", "10004711"), ("country", "DEU"), ("land", "DE"), ("amount", "100"), ("to", "EUR"),
    ]
    let (result, output) = try convert(layout, fields, options: ["--from", "USD"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(output?.contains("2026-10-30") == true, "converted at the newest rates: \(output ?? "no output")")
  }

  @Test("--date-field, --date and --undated each say what to do with such a file", arguments: Layout.allCases)
  func explicitChoices(layout: Layout) throws {
    let fields = Self.record(dateName: "updatedAt")
    let (named, namedOutput) = try convert(layout, fields, options: ["--date-field", "updatedAt"])
    #expect(named.status == 0, "\(named.standardError)")
    #expect(namedOutput?.contains("92.48") == true)
    let (oneDay, oneDayOutput) = try convert(layout, fields, options: ["--date", "2024-03-01"])
    #expect(oneDay.status == 0, "\(oneDay.standardError)")
    #expect(oneDayOutput?.contains("92.48") == true)
    let (undated, undatedOutput) = try convert(layout, fields, options: ["--undated"])
    #expect(undated.status == 0, "\(undated.standardError)")
    #expect(undatedOutput?.contains("2026-10-30") == true, "the newest day of the embedded rates")
  }

  @Test(
    "a file with nothing that looks like dates still converts at the newest rates, and says so",
    arguments: Layout.allCases)
  func undatedFileWithoutDateLikeFields(layout: Layout) throws {
    let fields: [(name: String, value: String)] = [("id", "P-1"), ("amount", "100"), ("currency", "USD"), ("to", "EUR")]
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(layout.file(fields), named: "in.\(layout.rawValue)")
    let result = try cli.run(["convert", "in.\(layout.rawValue)"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("records without a date: 1, converted at the rates of 2026-10-30"))
  }

  // Before: exit 0 for JSON, JSON Lines and XML, every record at the newest rates (CSV already refused it).
  @Test("--date-field naming a field no record has refuses the file", arguments: Layout.allCases)
  func namedDateFieldMissing(layout: Layout) throws {
    let (result, output) = try convert(layout, Self.record(dateName: "date"), options: ["--date-field", "booked"])
    #expect(result.status == 2)
    #expect(output == nil)
    #expect(result.standardError.contains(#"--date-field "booked": no"#), "\(result.standardError)")
  }

  // Before: exit 0, the USD amount converted as GBP (100 GBP → EUR), status ok.
  @Test(
    "--from on a file with a from-currency field refuses it; --override-currency-fields applies it",
    arguments: Layout.allCases)
  func fromOverridesACurrencyField(layout: Layout) throws {
    let fields = Self.record(dateName: "date")
    let (refused, refusedOutput) = try convert(layout, fields, options: ["--from", "GBP"])
    #expect(refused.status == 2)
    #expect(refusedOutput == nil)
    #expect(
      refused.standardError.contains(
        #"error: the file has a from-currency field "currency"; --from GBP would override it"#),
      "\(refused.standardError)")
    #expect(
      refused.standardError.contains(
        #"hint: remove --from to read each record's currency from "currency" (--from-field NAME reads another field),"#
          + " or add --override-currency-fields to convert every record from GBP anyway"))
    let (overridden, output) = try convert(layout, fields, options: ["--from", "GBP", "--override-currency-fields"])
    #expect(overridden.status == 0, "\(overridden.standardError)")
    #expect(output?.contains("EUR/GBP=") == true, "converted from GBP, as asked")
  }

  // Before: exit 0, the USD amount converted as GBP (break13 c2.csv, c3.csv): the names were not recognised.
  @Test(
    "--from on a file with a from-currency field named in another spelling or language refuses it",
    arguments: Layout.allCases, ["ccy_code", "Währung", "Waehrung", "currencyCode", "Devise"])
  func fromOverridesAnotherSpelling(layout: Layout, name: String) throws {
    let fields: [(name: String, value: String)] = [
      ("id", "1"), ("date", "2024-03-01"), ("amount", "100"), (name, "USD"), ("to", "EUR"),
    ]
    let (refused, output) = try convert(layout, fields, options: ["--from", "GBP"])
    #expect(refused.status == 2, "\(refused.standardError)")
    #expect(output == nil)
    #expect(
      refused.standardError.contains(
        "error: the file has a from-currency field \"\(name)\"; --from GBP would override it"),
      "\(refused.standardError)")
    let (read, readOutput) = try convert(layout, fields)
    #expect(read.status == 0, "\(read.standardError)")
    #expect(readOutput?.contains("92.48") == true, "read from the field: \(readOutput ?? "no output")")
  }

  // Before: exit 0, the USD amounts converted as GBP: no name says "currency", its values do.
  @Test(
    "--from or --to on a file with an unread field of currency codes refuses it; --override-currency-fields applies it",
    arguments: Layout.allCases)
  func codesInAnUnreadField(layout: Layout) throws {
    let fields: [(name: String, value: String)] = [
      ("id", "1"), ("date", "2024-03-01"), ("amount", "100"), ("Valuta", "USD"), ("to", "EUR"),
    ]
    let (refused, output) = try convert(layout, fields, options: ["--from", "GBP"])
    #expect(refused.status == 2, "\(refused.standardError)")
    #expect(output == nil)
    #expect(
      refused.standardError.contains(
        #"error: the file has a from-currency field "Valuta" (its values are currency codes: "USD"); --from GBP"#
          + " would override it"), "\(refused.standardError)")
    #expect(
      refused.standardError.contains(
        #"hint: use --from-field Valuta instead of --from to read each record's currency from "Valuta", or add"#
          + " --override-currency-fields to convert every record from GBP anyway"))
    let (named, namedOutput) = try convert(layout, fields, options: ["--from-field", "Valuta"])
    #expect(named.status == 0, "\(named.standardError)")
    #expect(namedOutput?.contains("92.48") == true)
    let (overridden, overriddenOutput) = try convert(
      layout, fields, options: ["--from", "GBP", "--override-currency-fields"])
    #expect(overridden.status == 0, "\(overridden.standardError)")
    #expect(overriddenOutput?.contains("EUR/GBP=") == true, "converted from GBP, as asked")
    let toFields: [(name: String, value: String)] = [
      ("date", "2024-03-01"), ("amount", "100"), ("currency", "USD"), ("target_ccy_iso", "EUR"),
    ]
    let (to, _) = try convert(layout, toFields, options: ["--to", "CHF"])
    #expect(to.status == 2)
    #expect(
      to.standardError.contains(
        #"the file has a to-currency field "target_ccy_iso" (its values are currency codes: "EUR"); --to CHF"#),
      "\(to.standardError)")
  }

  @Test("a currency code only in a later record refuses the file too")
  func laterCurrencyCode() throws {
    let text = "id,date,amount,Valuta,to\n1,2024-03-01,100,,EUR\n2,2024-03-01,100,usd,EUR\n"
    let (result, _) = try convert(text: text, named: "c.csv", options: ["--from", "GBP"])
    #expect(result.status == 2)
    #expect(result.standardError.contains(#"field "Valuta" (its values are currency codes: "usd")"#), "\(result.standardError)")
  }

  @Test("--to on a file with a to-currency field refuses it", arguments: Layout.allCases)
  func toOverridesACurrencyField(layout: Layout) throws {
    let (result, output) = try convert(layout, Self.record(dateName: "date"), options: ["--to", "CHF"])
    #expect(result.status == 2)
    #expect(output == nil)
    #expect(result.standardError.contains(#"error: the file has a to-currency field "to"; --to CHF would override it"#))
  }

  @Test("--from on a file without a from-currency field needs nothing more", arguments: Layout.allCases)
  func fromWithoutACurrencyField(layout: Layout) throws {
    let fields: [(name: String, value: String)] = [("date", "2024-03-01"), ("amount", "100"), ("to", "EUR")]
    let (result, output) = try convert(layout, fields, options: ["--from", "USD"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(output?.contains("92.48") == true)
  }

  @Test("--from with --from-field, or --override-currency-fields alone, is a usage error")
  func contradictoryOptions() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(Layout.csv.file(Self.record(dateName: "date")), named: "in.csv")
    let both = try cli.run(["convert", "--from", "GBP", "--from-field", "currency", "in.csv"], in: directory.url)
    #expect(both.status == 64)
    #expect(both.standardError.contains("--from and --from-field both give the from-currency: use one of them"))
    let alone = try cli.run(["convert", "--override-currency-fields", "in.csv"], in: directory.url)
    #expect(alone.status == 64)
    #expect(alone.standardError.contains("--override-currency-fields is for --from CODE or --to CODE"))
  }

  // Before: exit 0, the first `amount` column converted (100 USD), the other passed over. A header naming the
  // amount field twice refuses the file; `--amount-field` chooses a column by its exact name (200 USD → EUR on
  // 2024-03-01 = 200 / 1.0813 = 184.96).
  @Test func twoColumnsNamingOneFieldRefuseACSV() throws {
    let twice = Self.record(dateName: "date") + [("amount", "200")]
    let (refused, output) = try convert(.csv, twice)
    #expect(refused.status == 2)
    #expect(output == nil)
    #expect(
      refused.standardError.contains(
        #"the header's columns "amount" (column 3) and "amount" (column 6) both name the amount field; fxbatch does not pick one: rename one of them"#
      ), "\(refused.standardError)")
    let cased = Self.record(dateName: "date") + [("Amount", "200")]
    let (ambiguous, _) = try convert(.csv, cased)
    #expect(ambiguous.status == 2)
    #expect(ambiguous.standardError.contains("choose one with --amount-field NAME, its exact name"), "\(ambiguous.standardError)")
    let (chosen, converted) = try convert(.csv, cased, options: ["--amount-field", "Amount"])
    #expect(chosen.status == 0, "\(chosen.standardError)")
    #expect(converted?.contains(",200,0.9248127254,184.96,EUR,2024-03-01,") ?? false, "\(converted ?? "")")
  }
}
