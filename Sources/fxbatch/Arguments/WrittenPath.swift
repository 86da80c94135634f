import FXBatch
import Foundation

/// Checks of the paths a run writes (`-o`, `--report`, `--lock`) before any work, each failure a ``UsageError``
/// naming the option: a run must not fail half done because a file cannot be written.
enum WrittenPath {
  /// A file path the run writes: not a directory, whether by its text (`.`, `..`, `dir/`, empty) or on disk,
  /// and in a directory that exists.
  ///
  /// - Parameters:
  ///   - path: the option's value.
  ///   - option: the option's name, for the message.
  ///   - directoryHint: what to give instead of a directory, when there is something (`-o`: `--output-dir`).
  static func check(_ path: String, option: String, directoryHint: String? = nil) throws(UsageError) {
    let hint = directoryHint.map { "; \($0)" } ?? ""
    if PathText.namesDirectory(path) {
      throw UsageError("\(option) \(path): names a directory, not a file\(hint)")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw UsageError("\(option) \(path): is a directory\(hint)")
    }
    let parent = PathText.directory(of: path)
    guard
      parent.isEmpty
        || (FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) && isDirectory.boolValue)
    else {
      throw UsageError("\(option) \(path): no such directory \(parent)")
    }
  }

  /// Whether two paths name one existing file (the same device and inode: a link or another spelling too).
  static func isSameFile(_ first: String, _ second: String) -> Bool {
    var (a, b) = (stat(), stat())
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }
}
