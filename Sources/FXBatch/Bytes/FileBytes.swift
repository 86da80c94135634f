// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

@preconcurrency import CLinuxPipes

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads from a file into an array, for code that reads a window of a file (part boundaries, a format's first
/// bytes) without a pointer of its own.
enum FileBytes {
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

  /// Reads into `buffer[index...]`, retrying when a signal interrupts the call.
  ///
  /// - Parameters:
  ///   - descriptor: an open file.
  ///   - buffer: the array read into (its count is not changed).
  ///   - index: where in `buffer` the bytes go (`0 ... buffer.count`).
  ///   - fileOffset: the file offset to read at (`pread(2)`), or `nil` to read at the file's position (`read(2)`).
  /// - Returns: the bytes read (0 at the end of the file), or −1 with `errno` set.
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

  /// The first bytes waiting to be read from a descriptor, left there for its reader: a regular file's read at
  /// its position (`pread(2)`), a pipe's copied out of it by `tee(2)`.
  ///
  /// - Parameters:
  ///   - descriptor: an open descriptor (standard input).
  ///   - count: the most bytes wanted.
  ///   - decided: whether the bytes so far are enough (a pipe's writer may not have written `count` yet).
  /// - Returns: the bytes (fewer than `count` at the end, or once `decided`); `nil` for a descriptor that is
  ///   neither a regular file nor a pipe (a terminal, a socket), or one that cannot be read.
  static func peek(_ descriptor: Int32, count: Int, decided: ([UInt8]) -> Bool) -> [UInt8]? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      let position = lseek(descriptor, 0, SEEK_CUR)
      guard position >= 0 else { return nil }
      var filled = 0
      while filled < count {
        let got = read(from: descriptor, into: &bytes, at: filled, fileOffset: Int(position) + filled)
        if got < 0 { return nil }
        if got == 0 { break }
        filled += got
      }
      return Array(bytes[..<filled])
    case S_IFIFO:
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else { return nil }
      defer { for end in ends { close(end) } }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      while true {
        // Each tee copies the bytes waiting from the first: they are read back out of the copy and dropped.
        let copied = fxbatch_tee(descriptor, ends[1], count)
        if copied < 0, errno == EINTR { continue }
        guard copied >= 0 else { return nil }
        var filled = 0
        while filled < copied {
          let got = read(from: ends[0], into: &bytes, at: filled)
          guard got > 0 else { return nil }
          filled += got
        }
        let seen = Array(bytes[..<filled])
        if copied == 0 || copied >= count || decided(seen) { return seen }
        // Fewer bytes than wanted so far: done once the writer is gone, else wait a little for more.
        var waiting = pollfd(fd: descriptor, events: 0, revents: 0)
        if poll(&waiting, 1, 0) > 0, waiting.revents & Int16(POLLHUP) != 0 { return seen }
        usleep(1000)
      }
    default:
      return nil
    }
  }
}
