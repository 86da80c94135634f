import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("fxbatch-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes bytes to a file in the directory and returns its URL.
  @discardableResult
  public func write(_ name: String, _ contents: String) throws -> URL {
    let file = url.appendingPathComponent(name)
    try Data(contents.utf8).write(to: file)
    return file
  }

  /// The text of a file in the directory.
  public func read(_ name: String) throws -> String {
    String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
  }

  /// The names of the files in the directory, sorted.
  public func fileNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  public func remove() { try? FileManager.default.removeItem(at: url) }
}
