// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer of bytes to a file descriptor it is given (a temporary output file, or standard output).
public final class ByteSink {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private static let capacity = 1 << 18
  /// Whether a write to the descriptor failed (a full disk, a closed pipe): what a caller that wrote through
  /// others' code asks to know whether an error came from this sink.
  public private(set) var hasFailed = false

  /// - Parameter descriptor: an open, writable descriptor; the sink does not close it.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.capacity)
  }

  public func write(_ bytes: some Sequence<UInt8>) throws(OutputError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.capacity { try flush() }
  }

  public func write(_ text: String) throws(OutputError) { try write(text.utf8) }

  /// Writes bytes; a large block goes to the descriptor as it is, after what is buffered, without a copy.
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    guard bytes.count >= Self.capacity else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= Self.capacity { try flush() }
      return
    }
    try flush()
    try writeAll(UnsafeRawBufferPointer(bytes))
  }

  /// Writes the bytes of a view (as the buffer pointer variant).
  func write(_ bytes: ByteView) throws(OutputError) { try write(bytes.buffer) }

  /// Writes everything buffered.
  ///
  /// - Throws: ``OutputError/writeFailed(reason:)`` when the system refuses (disk full, closed pipe).
  public func flush() throws(OutputError) {
    let failure = buffer.withUnsafeBytes { bytes -> OutputError? in
      do throws(OutputError) { try writeAll(bytes) } catch { return error }
      return nil
    }
    if let failure { throw failure }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered, then the rest of an open file, copied by the kernel (`sendfile(2)`) without
  /// passing through this process.
  ///
  /// - Returns: `false`, with nothing of the file written, when the kernel cannot copy between these files
  ///   (the caller copies through memory instead).
  /// - Throws: ``OutputError/writeFailed(reason:)``.
  func transfer(from source: Int32) throws(OutputError) -> Bool {
    try flush()
    var copiedAny = false
    while true {
      let copied = sendfile(descriptor, source, nil, 1 << 30)
      if copied < 0 {
        if errno == EINTR { continue }
        if !copiedAny, errno == EINVAL || errno == ENOSYS { return false }
        hasFailed = true
        throw .writeFailed(reason: String(cString: strerror(errno)))
      }
      if copied == 0 { return true }
      copiedAny = true
    }
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        hasFailed = true
        throw .writeFailed(reason: String(cString: strerror(errno)))
      }
      offset += written
    }
  }
}

/// Why an output could not be written.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
  case writeFailed(reason: String)
  case cannotCreate(path: String, reason: String)
  case cannotRename(path: String, reason: String)

  public var description: String {
    switch self {
    case .writeFailed(let reason): return "cannot write the output: \(reason)"
    case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
    case .cannotRename(let path, let reason): return "cannot move the finished output to \(path): \(reason)"
    }
  }
}
