import Foundation

/// A fresh directory under the system's temporary directory, for tests that need small input files.
///
/// Call ``remove()`` when done (`defer { directory.remove() }`): removal is explicit so that the directory
/// never disappears while a reader still has a file in it open.
public struct TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL
  /// The directory's path.
  public var path: String { url.path }

  /// Creates a new, empty directory with a unique name.
  ///
  /// - Throws: the file system's error when the directory cannot be created.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fxbatch-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes a file into the directory, replacing one of the same name.
  ///
  /// - Parameters:
  ///   - bytes: the file's exact contents.
  ///   - name: the file's name (no directories).
  /// - Returns: the file's path.
  /// - Throws: the file system's error when the file cannot be written.
  @discardableResult
  public func write(_ bytes: [UInt8], named name: String) throws -> String {
    let filePath = (path as NSString).appendingPathComponent(name)
    try Data(bytes).write(to: URL(fileURLWithPath: filePath))
    return filePath
  }

  /// Writes a file holding the UTF-8 bytes of `text`, see the byte overload.
  @discardableResult
  public func write(_ text: String, named name: String) throws -> String {
    try write(Array(text.utf8), named: name)
  }

  /// Writes a file holding the UTF-8 bytes of `contents` (name first, as end-to-end tests read best).
  @discardableResult
  public func write(_ name: String, _ contents: String) throws -> String {
    try write(Array(contents.utf8), named: name)
  }

  /// The text of a file in the directory.
  ///
  /// - Throws: the file system's error when the file cannot be read.
  public func read(_ name: String) throws -> String {
    String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
  }

  /// The names of the files in the directory, sorted.
  ///
  /// - Throws: the file system's error when the directory cannot be listed.
  public func fileNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Deletes the directory and everything in it; errors are ignored (the system cleans its temporary
  /// directory anyway).
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
