import Foundation

/// A fresh directory under the system's temporary directory, for tests that need small input files.
///
/// Call ``remove()`` when done (`defer { directory.remove() }`): removal is explicit so that the directory
/// never disappears while a reader still has a file in it open.
public struct TemporaryDirectory: Sendable {
  /// The directory's path.
  public let path: String

  /// Creates a new, empty directory with a unique name.
  ///
  /// - Throws: the file system's error when the directory cannot be created.
  public init() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fxbatch-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
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

  /// Deletes the directory and everything in it; errors are ignored (the system cleans its temporary
  /// directory anyway).
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
