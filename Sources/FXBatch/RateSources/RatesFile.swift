import Foundation

/// Loads `--rates FILE`: an ECB XML feed, an ECB history CSV, or a simple `date,base,quote,rate` CSV,
/// recognised from the content.
public enum RatesFile: Sendable {
  /// Reads and validates a rates file.
  ///
  /// - Parameter path: the file's path.
  /// - Returns: its rate table; its source identifier is `file:NAME` and its publisher the file's name.
  /// - Throws: ``RatesFileError`` when the file cannot be read, is of no known layout, or has a bad line.
  public static func load(path: String) throws(RatesFileError) -> RateTable {
    let name = PathText.lastComponent(of: path)
    let info = RateSourceInfo(identifier: "file:\(name)", publisher: name, description: "rates file \(path)")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RatesFileError(path: path, line: 1, column: 1, message: "no such rates file")
    }
    guard !isDirectory.boolValue else {
      throw RatesFileError(path: path, line: 1, column: 1, message: "is a directory, not a rates file")
    }
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw RatesFileError(path: path, line: 1, column: 1, message: "cannot read the rates file: \(error.localizedDescription)")
    }
    let bytes = [UInt8](data)
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [9, 10, 13, 32].contains(bytes[start]) { start += 1 }
    guard start < bytes.count else { throw RatesFileError(path: path, line: 1, column: 1, message: "the rates file is empty") }
    if bytes[start] == UInt8(ascii: "<") {
      return try bytes.withUnsafeBufferPointer { buffer throws(RatesFileError) in
        try ECBXMLFeed.parse(buffer, path: path, info: info)
      }
    }
    let firstLine = String(decoding: bytes[start...].prefix { $0 != 10 && $0 != 13 }, as: UTF8.self)
    if ECBHistoryCSV.matches(header: firstLine) {
      return try bytes.withUnsafeBufferPointer { buffer throws(RatesFileError) in
        try ECBHistoryCSV.parse(buffer, path: path, info: info)
      }
    }
    let delimiter = CSVReader.detectDelimiter(in: firstLine.utf8)
    let header = firstLine.split(separator: Character(UnicodeScalar(delimiter)), omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
    if SimpleRatesCSV.matches(header: header) { return try SimpleRatesCSV.parse(path: path, info: info) }
    throw RatesFileError(
      path: path, line: 1, column: 1,
      message:
        "unknown rates layout: expected an ECB XML feed, an ECB history CSV (Date,USD,JPY,…) or a CSV with base,quote,rate (and optionally date) fields"
    )
  }
}
