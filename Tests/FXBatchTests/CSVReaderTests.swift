import FXBatchTestSupport
import Testing

@testable import FXBatch

@Suite("CSVReader", .tags(.sanitized))
struct CSVReaderTests {
  /// What a reader made of a whole file.
  struct ReadResult {
    let records: [CSVRecord]
    let delimiter: UInt8
    let hasByteOrderMark: Bool

    /// Every record's field values.
    var fields: [[String]] { records.map { record in (0..<record.fieldCount).map(record.field) } }
  }

  /// Writes `bytes` to a temporary file and reads every record.
  private func read(_ bytes: [UInt8], delimiter: UInt8? = nil) throws -> ReadResult {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let reader = try CSVReader(path: try directory.write(bytes, named: "input.csv"), delimiter: delimiter)
    var records: [CSVRecord] = []
    while let record = try reader.next() { records.append(record) }
    return ReadResult(records: records, delimiter: reader.delimiter, hasByteOrderMark: reader.hasByteOrderMark)
  }

  private func read(_ text: String, delimiter: UInt8? = nil) throws -> ReadResult {
    try read(Array(text.utf8), delimiter: delimiter)
  }

  private static let crlf: [UInt8] = [13, 10]

  @Test("a UTF-8 byte order mark is not part of the header")
  func byteOrderMark() throws {
    let result = try read([0xEF, 0xBB, 0xBF] + Array("amount,from,to\r\n10,USD,EUR\r\n".utf8))
    #expect(result.hasByteOrderMark)
    #expect(result.fields == [["amount", "from", "to"], ["10", "USD", "EUR"]])
    #expect(result.records.first?.raw == Array("amount,from,to".utf8))

    let withoutMark = try read("amount,from,to\n10,USD,EUR\n")
    #expect(!withoutMark.hasByteOrderMark)
    #expect(withoutMark.fields.first == ["amount", "from", "to"])
  }

  @Test("CRLF file with a quoted line break and doubled quotes: one record per record, fields intact")
  func quotedLineBreakAndDoubledQuotes() throws {
    let text = "id,note,amount\r\n1,\"line one\r\nline two\",10\r\n2,\"say \"\"hi\"\"\",20\r\n3,plain,30\r\n"
    let result = try read(text)
    #expect(result.records.count == 4)
    #expect(
      result.fields == [
        ["id", "note", "amount"], ["1", "line one\r\nline two", "10"], ["2", "say \"hi\"", "20"], ["3", "plain", "30"],
      ])
    #expect(result.records.map(\.line) == [1, 2, 4, 5])
    #expect(result.records.allSatisfy { $0.terminator == Self.crlf })
    // The raw bytes keep the original quoting for byte-for-byte output.
    #expect(result.records[2].raw == Array("2,\"say \"\"hi\"\"\",20".utf8))
    #expect(result.records[1].raw == Array("1,\"line one\r\nline two\",10".utf8))
  }

  @Test("a quoted LF inside an LF file")
  func quotedLineFeed() throws {
    let result = try read("a,b\n\"x\ny\",\"\"\n2,3\n")
    #expect(result.fields == [["a", "b"], ["x\ny", ""], ["2", "3"]])
    #expect(result.records.map(\.line) == [1, 2, 4])
  }

  @Test("CR-only line ends")
  func carriageReturnOnly() throws {
    let result = try read("a,b\r1,2\r3,4\r")
    #expect(result.fields == [["a", "b"], ["1", "2"], ["3", "4"]])
    #expect(result.records.allSatisfy { $0.terminator == [13] })
    #expect(result.records.map(\.line) == [1, 2, 3])

    let quoted = try read("a,b\r1,\"x\ry\"\r2,z\r")
    #expect(quoted.fields == [["a", "b"], ["1", "x\ry"], ["2", "z"]])
    #expect(quoted.records.map(\.line) == [1, 2, 4])
  }

  @Test("the last line without a line end", arguments: ["a,b\n1,2", "a,b\r\n1,2", "a,b\r1,2", "a,b\n1,\"2\""])
  func lastLineWithoutNewline(text: String) throws {
    let result = try read(text)
    #expect(result.fields == [["a", "b"], ["1", "2"]])
    #expect(result.records.last?.terminator == [])
  }

  @Test("blank lines come back as blank records")
  func blankLines() throws {
    let result = try read("a,b\n\n1,2\r\n\r\n3,4\n")
    #expect(result.records.count == 5)
    #expect(result.records.map(\.isBlank) == [false, true, false, true, false])
    #expect(result.records.map(\.fieldCount) == [2, 0, 2, 0, 2])
    #expect(result.records.map(\.terminator) == [[10], [10], Self.crlf, Self.crlf, [10]])
    #expect(result.records.map(\.line) == [1, 2, 3, 4, 5])
  }

  @Test("an empty file has no records", arguments: [[], [0xEF, 0xBB, 0xBF]] as [[UInt8]])
  func emptyFile(bytes: [UInt8]) throws {
    let result = try read(bytes)
    #expect(result.records.isEmpty)
    #expect(result.delimiter == UInt8(ascii: ","))
  }

  @Test("ragged rows keep their own field counts")
  func raggedRows() throws {
    let result = try read("a,b,c\n1,2\n1,2,3,4\n,\n")
    #expect(result.records.map(\.fieldCount) == [3, 2, 4, 2])
    #expect(result.fields[3] == ["", ""])
  }

  @Test("quotes inside an unquoted field are data; a quoted field with text after its closing quote keeps its bytes")
  func lenientQuotes() throws {
    // `"1"000` must never read as 1000: the malformed field's value is its bytes, quotes included.
    let result = try read("a,b\n1,x\"y\"z\n2,\"ab\"c\n3,\"1\"000\n")
    #expect(result.fields == [["a", "b"], ["1", "x\"y\"z"], ["2", "\"ab\"c"], ["3", "\"1\"000"]])
  }

  @Test(
    "an unterminated quote names the line and column where it opened",
    arguments: [
      ("a,b\n1,\"open\nmore\n", 2, 3),
      ("\"a,b\n", 1, 1),
      ("a,b\r\n1,\"x\r\ny\"\r\n2,\"z", 4, 3),
      ("a,b\r1,\"x\ry\"\r22,\"z", 4, 4),
      ("a,b\n1,\"x\"\"\n", 2, 3),
      ("\u{FEFF}\"a", 1, 1),
      ("a,b\n\n\n1,2,\"", 4, 5),
    ] as [(String, Int, Int)])
  func unterminatedQuote(text: String, line: Int, column: Int) throws {
    #expect(throws: CSVError.unterminatedQuote(line: line, column: column)) {
      _ = try read(text)
    }
  }

  @Test("an unreadable file is a CSVError")
  func unreadable() {
    let error = #expect(throws: CSVError.self) {
      _ = try CSVReader(path: "/nonexistent-fxbatch-test-dir/input.csv")
    }
    guard case .unreadable = error else {
      Issue.record("expected CSVError.unreadable, got \(String(describing: error))")
      return
    }
  }

  @Test(
    "the delimiter is the most frequent of , ; tab outside quotes in the first line",
    arguments: [
      ("a,b,c", ","), ("a;b;c", ";"), ("a\tb\tc", "\t"), ("\"x;y;z\",b,c", ","), ("amount", ","), ("", ","),
      ("a;b,c;d", ";"), ("a,b;c,d\n1;2;3;4;5;6", ","), ("\"Date\";\"Amount\"", ";"), ("a,b;c", ","), ("a;b\tc", ";"),
      ("a\tb;c", ";"),
      ("a\tb,c", ","),
    ] as [(String, String)])
  func detectDelimiter(header: String, expected: String) {
    // Ties go to `,`, then `;`, then tab, every time.
    for _ in 0..<20 {
      #expect(CSVReader.detectDelimiter(in: Array(header.utf8)) == Array(expected.utf8)[0])
    }
  }

  @Test("a file's delimiter is detected from its header", arguments: [",", ";", "\t"])
  func fileDelimiter(delimiter: String) throws {
    let result = try read(
      ["amount", "from", "to"].joined(separator: delimiter) + "\n" + ["1,5", "USD", "EUR"].joined(separator: delimiter) + "\n")
    #expect(result.delimiter == Array(delimiter.utf8)[0])
    if delimiter == "," {
      #expect(result.fields[1] == ["1", "5", "USD", "EUR"])
    } else {
      #expect(result.fields == [["amount", "from", "to"], ["1,5", "USD", "EUR"]])
    }
  }

  @Test("a given delimiter overrides detection")
  func delimiterOverride() throws {
    let result = try read("a,b;c\n1,2;3\n", delimiter: UInt8(ascii: ";"))
    #expect(result.delimiter == UInt8(ascii: ";"))
    #expect(result.fields == [["a,b", "c"], ["1,2", "3"]])
  }

  @Test("the Firefly III export: semicolons, quoted fields, a quoted empty field")
  func fireflyExport() throws {
    let result = try read(try Fixture.bytes("csv", "firefly-iii-1183-semicolon-decimal-comma.csv"))
    #expect(result.delimiter == UInt8(ascii: ";"))
    #expect(
      result.fields == [
        ["Date", "Amount", "Account", "Counterparty", "Name", "Description"],
        ["2016-09-02", "20,00", "NL99IBAN1234567890", "NL99IBAN1234567890", "NAME", "DESCRIPTION"],
        ["2016-09-02", "-0,01", "NL99IBAN1234567890", "NL99IBAN1234567890", "NAME", ""],
      ])
  }

  @Test("a 100,000-byte field spans the 64 KiB read buffer intact", arguments: [true, false])
  func longField(quoted: Bool) throws {
    let long = String(repeating: "x", count: 100_000)
    let field = quoted ? "\"" + long + "\"" : long
    let result = try read("id,note\n1," + field + "\n2,end\n")
    #expect(result.records.count == 3)
    #expect(result.fields[1].count == 2)
    #expect(result.fields[1].last == long)
    #expect(result.fields[2] == ["2", "end"])
  }

  @Test("a header longer than the read buffer still gives its delimiter")
  func longHeader() throws {
    let names = (0..<10_000).map { "field\($0)" }
    let result = try read(
      names.joined(separator: ";") + "\n" + Array(repeating: "1", count: 10_000).joined(separator: ";") + "\n")
    #expect(result.delimiter == UInt8(ascii: ";"))
    #expect(result.records.map(\.fieldCount) == [10_000, 10_000])
    #expect(result.fields[0].last == "field9999")
  }

  /// Lengths of filler that put the bytes after it on each side of the 65,536-byte boundary of the first read.
  private static let fillerLengths = Array(65_520...65_540)

  @Test("CR LF split across the buffer boundary is one line end", arguments: fillerLengths)
  func lineEndAcrossBoundary(fillerLength: Int) throws {
    let filler = String(repeating: "f", count: fillerLength)
    let result = try read("id,note\r\n1," + filler + "\r\n2,z\r\n")
    #expect(result.records.count == 3)
    #expect(result.records.allSatisfy { !$0.isBlank })
    #expect(result.records.map(\.terminator) == [Self.crlf, Self.crlf, Self.crlf])
    #expect(result.fields[1] == ["1", filler])
  }

  @Test("quotes, doubled quotes and a quoted CR LF across the buffer boundary", arguments: fillerLengths)
  func quotingAcrossBoundary(fillerLength: Int) throws {
    let filler = String(repeating: "f", count: fillerLength)
    let result = try read("id,note\r\n1,\"" + filler + "a\"\"b\r\nc\"\r\n2,z\r\n")
    #expect(result.fields == [["id", "note"], ["1", filler + "a\"b\r\nc"], ["2", "z"]])
    #expect(result.records.map(\.line) == [1, 2, 4])
  }

  @Test("many records read in order")
  func manyRecords() throws {
    let count = 20_000
    var text = "n,v\n"
    for index in 0..<count { text += "\(index),\"v\(index)\"\n" }
    let result = try read(text)
    #expect(result.records.count == count + 1)
    #expect(result.fields[count] == ["\(count - 1)", "v\(count - 1)"])
    #expect(result.records[count].line == count + 1)
  }
}
