import Foundation

/// One report given to `fxbatch report merge`, read strictly: a part is merged only as what it says.
public struct ReportPart: Sendable {
  /// The report.
  public let report: RunReport
  /// SHA-256 of the report's content — its values, parsed and written again in one canonical form — so that
  /// the same part given twice is found whatever its bytes (a copy pretty-printed again, its members
  /// reordered), and its counts are not added twice.
  public let digest: String

  /// Reads a report's JSON.
  ///
  /// - Parameters:
  ///   - bytes: the file's content.
  ///   - name: the file's path, for messages.
  /// - Throws: ``ReportMergeError`` for text that is not JSON, a member named twice in one object (readers
  ///   disagree on which value counts: Foundation takes the first, Python and jq the last), or JSON that is
  ///   not a report.
  public init(bytes: [UInt8], name: String) throws(ReportMergeError) {
    let value: JSONValue
    do { value = try JSONParser.parse(bytes, maximumValues: Self.maximumValues) } catch {
      throw ReportMergeError("\(name):1:1: error: not a report fxbatch wrote (not JSON: \(error))")
    }
    if let repeated = value.repeatedMember {
      throw ReportMergeError(
        "\(name):1:1: error: the member \(repeated) occurs twice: which value counts is unclear, so the report is not merged")
    }
    do { report = try JSONDecoder().decode(RunReport.self, from: Data(bytes)) } catch {
      throw ReportMergeError("\(name):1:1: error: not a report fxbatch wrote (\(Self.decodingProblem(error)))")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let canonical = try? encoder.encode(report) else {
      throw ReportMergeError("\(name):1:1: error: not a report fxbatch wrote (it cannot be written again)")
    }
    digest = SHA256Digest.hex(of: [UInt8](canonical))
  }

  /// The most values a report may hold (a report lists its files: 10 million values is a run of a million
  /// files or so).
  static let maximumValues = 10_000_000

  /// The largest report file read, in bytes: ``maximumValues`` values take about 400 MB as fxbatch writes
  /// them. A larger file is refused before it is read (a 3 GB file was read whole: 6.3 GB of memory).
  public static let maximumSize = 512 << 20

  /// Reads a report file whole, at most ``maximumSize`` bytes: a regular file, or a pipe (`<(…)`) read to its
  /// end.
  ///
  /// - Parameter path: the file.
  /// - Returns: its bytes.
  /// - Throws: ``ReportMergeError`` naming the file when it does not exist, cannot be read, or is larger than
  ///   ``maximumSize``.
  public static func contents(of path: String) throws(ReportMergeError) -> [UInt8] {
    func fail(_ reason: String) -> ReportMergeError { ReportMergeError("\(path):1:1: error: \(reason)") }
    let tooLarge = fail(
      "the report is larger than the \(maximumSize >> 20) MB a report may have (a report fxbatch writes is far smaller)")
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw fail(errno == ENOENT ? "no such file" : "cannot be read") }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > maximumSize {
      throw tooLarge
    }
    // Read in chunks: a pipe's size is known only at its end.
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let got = FileBytes.read(from: descriptor, into: &chunk)
      guard got >= 0 else { throw fail("cannot be read") }
      if got == 0 { return bytes }
      guard bytes.count + got <= maximumSize else { throw tooLarge }
      bytes.append(contentsOf: chunk[..<got])
    }
  }

  /// What a report's JSON lacks, in a line (not Foundation's whole description).
  private static func decodingProblem(_ error: Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "no \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what a report holds there"
    case DecodingError.dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not JSON" : "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is malformed"
    default:
      return "unreadable"
    }
  }
}
