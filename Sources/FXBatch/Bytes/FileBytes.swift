// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads from a file into an array, for code that reads a window of a file (part boundaries, a format's first
/// bytes) without a pointer of its own.
enum FileBytes {
  /// Reads into `buffer[index...]`, retrying when a signal interrupts the call.
  ///
  /// - Parameters:
  ///   - descriptor: an open file.
  ///   - buffer: the array read into (its count is not changed).
  ///   - index: where in `buffer` the bytes go (`0 ... buffer.count`).
  ///   - fileOffset: the file offset to read at (`pread(2)`), or `nil` to read at the file's position (`read(2)`).
  /// - Returns: the bytes read (0 at the end of the file), or −1 with `errno` set.
  /// The first `count` bytes of a file (fewer when it is shorter; none when it cannot be read).
  static func prefix(of path: String, count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    while filled < count {
      let got = read(from: descriptor, into: &bytes, at: filled)
      if got <= 0 { break }
      filled += got
    }
    return Array(bytes[..<filled])
  }

  static func read(from descriptor: Int32, into buffer: inout [UInt8], at index: Int = 0, fileOffset: Int? = nil) -> Int {
    assert(index >= 0 && index <= buffer.count, "FileBytes: index \(index) out of 0...\(buffer.count)")
    return buffer.withUnsafeMutableBytes { bytes in
      let room = bytes.count - index
      guard room > 0, let start = bytes.baseAddress else { return 0 }
      while true {
        let got =
          fileOffset.map { pread(descriptor, start + index, room, off_t($0)) } ?? Glibc.read(descriptor, start + index, room)
        if got < 0, errno == EINTR { continue }
        return got
      }
    }
  }
}
