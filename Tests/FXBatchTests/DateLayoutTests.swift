import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Dates as exports write them (fxbatch issue 32): the order of slash dates inferred from the date column
/// (``DateLayoutInference``), `--date-format` patterns (``DatePattern``), the unambiguous layouts read without a
/// pattern, and the day of a date-time with an offset (the date as written).
@Suite("date layouts")
struct DateLayoutTests {
  // MARK: Evidence and decision

  @Test(
    "what a date says about the order of its column",
    arguments: [
      ("13/04/2024", DateLayoutInference.Evidence.dayFirst), ("04/13/2024", .monthFirst), ("03/04/2024", .ambiguous),
      ("13-04-2024", .dayFirst), ("4-13-2024", .monthFirst), ("1/6/2025", .ambiguous), (" 31/12/2024 ", .dayFirst),
      ("13/04/2024 10:00", .dayFirst),
      // The same day either way, not a slash date that starts with its day or month, or no date at all.
      ("05/05/2024", .neutral), ("2024-04-13", .neutral), ("2024/04/13", .neutral), ("13.04.2024", .neutral),
      ("04.13.2024", .neutral), ("20240413", .neutral), ("13 Apr 2024", .neutral), ("", .neutral),
      ("13/13/2024", .neutral), ("32/01/2024", .neutral), ("13/04/24", .neutral), ("13/04/2024 junk", .neutral),
    ] as [(String, DateLayoutInference.Evidence)])
  func evidence(text: String, expected: DateLayoutInference.Evidence) {
    #expect(DateLayoutInference.evidence(text) == expected, "\(text)")
  }

  @Test(
    "a column proving one order is read in it; both or neither leave it to --date-format",
    arguments: [
      (["13/04/2024", "03/04/2024"], DateFormat.SlashDateOrder?.some(.dayFirst)),
      (["04/13/2024", "03/04/2024", "2024-01-05"], .monthFirst),
      (["13/04/2024", "04/13/2024", "03/04/2024"], .mixed),
      (["03/04/2024", "05/06/2024"], nil),
      (["2024-01-05", "05.01.2024"], nil),
      ([], nil),
    ] as [([String], DateFormat.SlashDateOrder?)])
  func decision(dates: [String], expected: DateFormat.SlashDateOrder?) {
    var inference = DateLayoutInference()
    for date in dates { inference.add(date) }
    #expect(inference.decision == expected)
    #expect(inference.format(given: .iso) == (expected.map { DateFormat.slashDates($0) } ?? .iso))
    // A format given on the command line is never overridden.
    #expect(inference.format(given: .monthDayYear) == .monthDayYear)
    #expect(inference.format(given: .dayMonthYear) == .dayMonthYear)
  }

  /// Parts of a column add up to what the whole column says (``PassOneState`` adds each part's counts).
  @Test func partsAddUp() {
    let column = ["03/04/2024", "13/04/2024", "", "2024-01-05", "05/05/2024", "31/12/2023", "1/2/2024"]
    var whole = DateLayoutInference()
    for date in column { whole.add(date) }
    for split in 0...column.count {
      var first = DateLayoutInference()
      var second = DateLayoutInference()
      for date in column[..<split] { first.add(date) }
      for date in column[split...] { second.add(date) }
      first.add(second)
      #expect(first == whole)
    }
    #expect(whole.dayFirst == 2 && whole.monthFirst == 0 && whole.ambiguous == 2)
  }

  @Test(
    "an inferred order reads slash and dash dates; dotted dates stay day-first",
    arguments: [
      (DateFormat.SlashDateOrder.dayFirst, "03/04/2024", "2024-04-03"),
      (.dayFirst, "13/04/2024", "2024-04-13"),
      (.dayFirst, "03-04-2024", "2024-04-03"),
      (.monthFirst, "03/04/2024", "2024-03-04"),
      (.monthFirst, "04/13/2024 14:05", "2024-04-13"),
      (.monthFirst, "03.04.2024", "2024-04-03"),
      (.monthFirst, "2024-01-05", "2024-01-05"),
    ] as [(DateFormat.SlashDateOrder, String, String)])
  func inferredOrder(order: DateFormat.SlashDateOrder, text: String, expected: String) throws {
    #expect(try DateFormat.slashDates(order).parse(text).get() == day(expected))
  }

  @Test(
    "a column of both orders refuses its slash dates, saying so",
    arguments: [
      (
        "13/04/2024",
        "reads only as day/month/year, but the column also has dates that read only as month/day/year: no "
          + "--date-format reads both; fix the dates at the source, or --date-format dmy reads this one and fails those"
      ),
      (
        "04/13/2024",
        "reads only as month/day/year, but the column also has dates that read only as day/month/year: no "
          + "--date-format reads both; fix the dates at the source, or --date-format mdy reads this one and fails those"
      ),
      (
        "03/04/2024",
        "is ambiguous (day/month or month/day?), and the column has day-first and month-first dates: no --date-format "
          + "reads both; fix the dates at the source, or --date-format dmy or mdy reads this one in that order, which "
          + "nothing in the column confirms"
      ),
    ])
  func mixedColumn(text: String, reason: String) {
    // Before: "pass --date-format dmy or --date-format mdy", though either fails the dates of the other order.
    #expect(DateFormat.slashDates(.mixed).parse(text) == .failure(RowError(.invalidDate, "\"\(text)\" \(reason)")))
    #expect((try? DateFormat.slashDates(.mixed).parse("13.04.2024").get()) == CalendarDay(year: 2024, month: 4, day: 13))
  }

  // MARK: Layouts read without a pattern

  @Test(
    "export layouts read under iso, where they are unambiguous",
    arguments: [
      ("03 Apr 2024", "2024-04-03"), ("3 April 2024", "2024-04-03"), ("03-APR-2024", "2024-04-03"),
      ("Apr 3, 2024", "2024-04-03"), ("April 03 2024", "2024-04-03"), ("03 Sept 2024", "2024-09-03"),
      ("03 Apr 2024 14:05", "2024-04-03"), ("03 Apr 2024 14:05:00 +0200", "2024-04-03"),
      ("20240403", "2024-04-03"), ("03.04.2024 14:05", "2024-04-03"), ("3.4.2024 9:05:59", "2024-04-03"),
      ("03.04.2024T14:05", "2024-04-03"), ("2024-04-03 14:05:00 +0200", "2024-04-03"),
      ("2024-04-03 14:05:00 -02:30", "2024-04-03"), ("2024-04-03 14:05 Z", "2024-04-03"),
    ] as [(String, String)])
  func exportLayouts(text: String, expected: String) throws {
    #expect(try DateFormat.iso.parse(text).get() == day(expected), "\(text)")
  }

  @Test(
    "the day of a date-time is the date as written, around midnight too",
    arguments: [
      ("2024-04-03 23:30:00 -0500", "2024-04-03"),  // 2024-04-04 04:30 UTC
      ("2024-04-04T00:30:00+02:00", "2024-04-04"),  // 2024-04-03 22:30 UTC
      ("2024-04-03T23:59:59-12:00", "2024-04-03"),
      ("2024-04-04 00:00:00 +1400", "2024-04-04"),
      ("04 Apr 2024 00:30 +0200", "2024-04-04"),
    ] as [(String, String)])
  func offsetsNeverMoveTheDate(text: String, expected: String) throws {
    #expect(try DateFormat.iso.parse(text).get() == day(expected))
    #expect(try DateFormat(option: "%Y-%m-%d %H:%M:%S %z").parse("2024-04-03 23:30:00 -0500").get() == day("2024-04-03"))
    #expect(try DateFormat(option: "%Y-%m-%dT%H:%M:%S%z").parse("2024-04-04T00:30:00+02:00").get() == day("2024-04-04"))
  }

  @Test(
    "what the layouts without a pattern refuse",
    arguments: [
      ("03 Foo 2024", "is not a date"), ("31 Apr 2024", "is not a calendar date"),
      ("03 Apr 2024 25:00", "has no such time of day"),
      ("03.04.2024 junk", "only a time may follow a date"), ("03/04/2024 10", "only a time may follow a date"),
      ("2024-04-03 14:05:00 +9900", "has no such time zone offset"), ("Apr 3 24", "has a two-digit year; give --date-format '%b %d %y' to read it"),
      ("03-APR-24", "has a two-digit year; give --date-format '%d-%b-%y' to read it"), ("Apr 2024", "is not a date"),
    ] as [(String, String)])
  func refusals(text: String, reason: String) {
    guard case .failure(let error) = DateFormat.iso.parse(text) else {
      Issue.record("\(text) was read")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message.contains(reason), "\(error.message)")
  }

  // MARK: Patterns

  @Test(
    "--date-format patterns",
    arguments: [
      ("%d %b %Y", "03 Apr 2024", "2024-04-03"), ("%d %b %Y", "3 april 2024", "2024-04-03"),
      ("%d %B %Y", "3 Apr 2024", "2024-04-03"), ("%Y%m%d", "20240403", "2024-04-03"),
      ("%d.%m.%Y %H:%M", "03.04.2024 14:05", "2024-04-03"), ("%d.%m.%Y %H:%M", "3.4.2024  9:05", "2024-04-03"),
      ("%Y-%m-%d %H:%M:%S %z", "2024-04-03 14:05:00 +0200", "2024-04-03"),
      ("%Y-%m-%d %H:%M:%S %z", "2024-04-03 23:30:00 -0500", "2024-04-03"),
      ("%Y-%m-%dT%H:%M:%S.%f%z", "2024-04-04T00:30:00.123456Z", "2024-04-04"),
      ("%m/%d/%y", "04/03/24", "2024-04-03"), ("%d/%m/%y", "31/12/69", "1969-12-31"), ("%d/%m/%y", "01/01/68", "2068-01-01"),
      ("%b %d, %Y %I:%M %p", "Apr 3, 2024 11:59 PM", "2024-04-03"), ("%d%%%m%%%Y", "03%04%2024", "2024-04-03"),
      ("%d-%b-%y", "03-APR-24", "2024-04-03"), ("%m/%d/%Y", "4/3/2024", "2024-04-03"),
    ] as [(String, String, String)])
  func patterns(pattern: String, text: String, expected: String) throws {
    #expect(try DateFormat(option: pattern).parse(text).get() == day(expected), "\(pattern) \(text)")
  }

  @Test(
    "what a pattern refuses",
    arguments: [
      ("%d %b %Y", "03 Apx 2024", "does not match --date-format \"%d %b %Y\""),
      ("%d %b %Y", "03 Apr 2024 10:00", "does not match"), ("%Y%m%d", "2024043", "does not match"),
      ("%Y%m%d", "20240431", "is not a calendar date"), ("%d.%m.%Y %H:%M", "03.04.2024 24:00", "has no such time of day"),
      ("%Y-%m-%d %z", "2024-04-03 +1500", "has no such time zone offset"), ("%d/%m/%Y", "03/04/24", "does not match"),
      ("%b %d, %Y %I:%M %p", "Apr 3, 2024 13:00 PM", "has no such time of day"),
    ] as [(String, String, String)])
  func patternRefusals(pattern: String, text: String, reason: String) throws {
    guard case .failure(let error) = try DateFormat(option: pattern).parse(text) else {
      Issue.record("\(text) was read by \(pattern)")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message.contains(reason), "\(error.message)")
  }

  @Test(
    "patterns fxbatch cannot use",
    arguments: [
      ("%d %q %Y", "%q is not a directive fxbatch reads"), ("%d.%m.%Y %", "a % at the end"),
      ("%d.%m.%Y.%y", "gives the year twice"), ("%m/%Y", "has no day"), ("%d/%Y", "has no month"),
      ("%d/%m", "has no year"), ("%d %b %m %Y", "gives the month twice"), ("dd/mm/yyyy", "expected one of iso, dmy"),
    ])
  func badPatterns(pattern: String, reason: String) {
    #expect(throws: DatePattern.PatternError.self) { try DateFormat(option: pattern) }
    do {
      _ = try DateFormat(option: pattern)
    } catch {
      #expect(error.description.contains(reason), "\(error.description)")
    }
  }

  @Test func namedFormatsKeepTheirNames() throws {
    #expect(DateFormat.allCases.map(\.rawValue) == ["iso", "dmy", "mdy", "unix", "unix-ms"])
    for format in DateFormat.allCases { #expect(try DateFormat(option: format.rawValue) == format) }
    #expect(try DateFormat(option: "%d %b %Y").rawValue == "%d %b %Y")
  }

  // MARK: Files

  /// Converts a file on the embedded table (2026-10-30) with options.
  static func convert(_ text: String, named name: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> (
    output: String, report: RunReport
  ) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(text, named: name)
    let output = directory.url.appendingPathComponent("out-" + name).path
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fixedTo = CurrencyCode("EUR")
    configure(&options)
    let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
    return (String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data(), as: UTF8.self), report)
  }

  /// The `fx_rate_date` of each record of a written `date,amount,currency` CSV file.
  static func rateDays(_ csv: String) -> [String] {
    csv.split(separator: "\n").dropFirst().map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      return fields.count > 6 ? String(fields[6]) : ""
    }
  }

  /// The dates of the issue, as the CSV, JSON Lines and XML files a day-first, a month-first and a mixed export
  /// write.
  /// 2024-04-03 (a Wednesday) and 2024-04-12 (the Friday before Saturday 13th) have rates.
  @Test(arguments: ["csv", "jsonl", "xml"])
  func columnsDecideTheirOrder(format: String) throws {
    func file(_ dates: [String]) -> String {
      switch format {
      case "csv": return "date,amount,currency\n" + dates.map { "\($0),10.00,USD\n" }.joined()
      case "xml":
        return "<rows>\n"
          + dates.map { "<row><date>\($0)</date><amount>10.00</amount><currency>USD</currency></row>\n" }.joined()
          + "</rows>\n"
      default: return dates.map { "{\"date\":\"\($0)\",\"amount\":\"10.00\",\"currency\":\"USD\"}\n" }.joined()
      }
    }
    func days(_ output: String) -> [String] {
      if format == "csv" { return Self.rateDays(output) }
      let marker = format == "xml" ? "rate-date=\"" : "\"fx_rate_date\":\""
      return output.split(separator: "\n").filter { $0.contains("amount") }.map { line in
        guard let range = line.range(of: marker) else { return "" }
        return String(line[range.upperBound...].prefix(10))
      }
    }
    let name = "in.\(format)"
    let dayFirst = try Self.convert(file(["13/04/2024", "03/04/2024"]), named: name)
    #expect(days(dayFirst.output) == ["2024-04-12", "2024-04-03"])
    #expect(dayFirst.report.files.first?.slashDates == "day-first")
    #expect(dayFirst.report.totals.error == 0)
    let monthFirst = try Self.convert(file(["04/13/2024", "03/04/2024"]), named: name)
    #expect(days(monthFirst.output) == ["2024-04-12", "2024-03-04"])
    #expect(monthFirst.report.files.first?.slashDates == "month-first")
    // Half the column day-first, half month-first: nothing is guessed.
    let mixed = try Self.convert(file(["13/04/2024", "04/13/2024", "03/04/2024", "2024-04-03"]), named: name)
    #expect(mixed.report.files.first?.slashDates == "mixed")
    #expect(mixed.report.totals.error == 3)
    #expect(mixed.output.contains("no --date-format reads both; fix the dates at the source"))
    // Only ambiguous dates: refused with the hint, as before.
    let ambiguous = try Self.convert(file(["03/04/2024", "05/06/2024"]), named: name)
    #expect(ambiguous.report.files.first?.slashDates == nil)
    #expect(ambiguous.report.totals.error == 2)
    #expect(ambiguous.output.contains("is ambiguous (day/month or month/day?); pass --date-format dmy or --date-format mdy"))
    // A given --date-format is never overridden by the column.
    let given = try Self.convert(file(["13/04/2024", "03/04/2024"]), named: name) { $0.dateFormat = .monthDayYear }
    #expect(given.report.files.first?.slashDates == nil)
    #expect(given.report.totals.error == 1)
  }

  @Test func summarySaysWhatWasInferred() throws {
    let dayFirst = try Self.convert("date,amount,currency\n13/04/2024,1,USD\n", named: "in.csv")
    #expect(RunSummary.text(of: dayFirst.report).contains("[day-first dates (inferred from the dates)]"))
    let mixed = try Self.convert("date,amount,currency\n13/04/2024,1,USD\n04/13/2024,1,USD\n", named: "in.csv")
    #expect(RunSummary.text(of: mixed.report).contains(
        "slash dates of both orders (13/04, 04/13): refused; fix them at the source, or give --date-format dmy or "
          + "mdy and those of the other order fail"))
  }

  @Test func exportLayoutsInAFile() throws {
    let text =
      "date,amount,currency\n03 Apr 2024,1,USD\n20240403,1,USD\n03.04.2024 14:05,1,USD\n2024-04-03 14:05:00 +0200,1,USD\n"
      + "2024-04-03 23:30:00 -0500,1,USD\n2024-04-04T00:30:00+02:00,1,USD\n"
    let converted = try Self.convert(text, named: "in.csv")
    #expect(Self.rateDays(converted.output) == Array(repeating: "2024-04-03", count: 5) + ["2024-04-04"])
    let pattern = try DateFormat(option: "%d %b %Y")
    let patterned = try Self.convert("date,amount,currency\n03 Apr 2024,1,USD\n20240403,1,USD\n", named: "in.csv") {
      $0.dateFormat = pattern
    }
    #expect(Self.rateDays(patterned.output) == ["2024-04-03", ""])
  }
}
