import Testing

@testable import FXBatch

/// The options only some formats take, kept by ``BatchOptions`` in ``FormatSettings`` and declared in their
/// formats' folders.
@Suite("Format settings")
struct FormatSettingsTests {
  @Test func aRunThatGivesNoFormatOptionHasTheDefaults() {
    let options = BatchOptions(today: CalendarDay(iso8601: "2024-01-05")!)
    #expect(options.delimiter == nil && options.header == nil && options.encoding == nil && options.writesHeader)
    #expect(options.recordsPath.isEmpty && options.recordElement == nil)
    #expect(options.sheet == nil && options.headerRow == nil)
    #expect(options.formatSettings.given.isEmpty)
  }

  @Test func eachValueIsKeptUnderItsFormatsType() {
    var options = BatchOptions(today: CalendarDay(iso8601: "2024-01-05")!)
    options.delimiter = UInt8(ascii: ";")
    options.writesHeader = false
    options.recordsPath = ["data", "items"]
    options.recordElement = "Ntry"
    options.sheet = "2"
    options.headerRow = 3
    let copy = options
    options.delimiter = UInt8(ascii: "\t")
    #expect(copy.delimiter == UInt8(ascii: ";"), "a copy keeps its values")
    #expect(options.formatSettings[CSVOptions.self].delimiter == UInt8(ascii: "\t"))
    #expect(options.formatSettings[CSVOptions.self].writesHeader == false)
    #expect(options.formatSettings[JSONOptions.self].recordsPath == ["data", "items"])
    #expect(options.formatSettings[XMLOptions.self].recordElement == "Ntry")
    #expect(options.formatSettings[WorkbookOptions.self].sheet == "2")
    #expect(options.formatSettings[WorkbookOptions.self].headerRow == 3)
    #expect(options.formatSettings.given == [.noHeaderOutput, .headerRow])
    options.header = ["date", "amount"]
    options.encoding = .windows1252
    #expect(options.formatSettings.given == [.noHeaderOutput, .headerRow, .header, .encoding])
  }
}
