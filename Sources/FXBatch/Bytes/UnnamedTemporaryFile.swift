import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.
// This one hands a C string buffer to mkstemp(3).

/// A temporary file with no name: created in `$TMPDIR` (else `/tmp`) and unlinked at once, so that nothing is
/// left behind however the process ends (even `kill -9`); its space is freed when its descriptor is closed.
enum UnnamedTemporaryFile {
  /// Creates one.
  ///
  /// - Parameters:
  ///   - prefix: the start of its name while it is created.
  ///   - directory: where it is created.
  /// - Returns: its descriptor, open for reading and writing, closed on `exec`; the caller closes it.
  /// - Throws: ``OutputError`` when it cannot be created.
  static func create(prefix: String, in directory: String = NSTemporaryDirectory()) throws(OutputError) -> Int32 {
    let path = PathText.appending("\(prefix)-\(getpid())-XXXXXX", to: directory)
    var template = Array(path.utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      guard let start = buffer.baseAddress else { return Int32(-1) }
      let descriptor = mkstemp(start)
      if descriptor >= 0 {
        unlink(start)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      }
      return descriptor
    }
    guard descriptor >= 0 else {
      throw .writeFailed(
        reason: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
    }
    return descriptor
  }
}
