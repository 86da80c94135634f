@preconcurrency import CZip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Zip/ wraps libzip; the pointers it hands over (this callback's data, chunk buffers, names) stay inside the
// Zip/ folder (docs/development.md, "Unsafe code").

/// The file a libzip archive is read from and, when a package is written, the file libzip writes the new archive
/// to, answering libzip's source commands (`zip_source_function(3)`).
///
/// libzip's own file source writes a changed archive over the file it read, through a temporary file beside it.
/// fxbatch never touches its input, and writes its outputs through ``AtomicFile``; so the archive is read from an
/// input descriptor (`pread(2)`) and written to a separate, seekable output descriptor (`pwrite(2)`, in writes of
/// up to a megabyte: libzip goes back to fill in each local header once the entry's data is written), which the
/// caller then moves into place.
final class ZipArchiveSource: ZipSourceAnswering {
  /// The input, owned: closed when libzip frees the source.
  private let input: Int32
  private let size: UInt64
  /// The output, not owned; `nil` for a package that is only read.
  private let output: Int32?
  private var position: UInt64 = 0
  private var writePosition: UInt64 = 0
  private var writeLength: UInt64 = 0
  /// Bytes written and not yet given to the system, which go at `pendingOffset`: libzip writes an entry's data
  /// in pieces of 8 KiB, gathered here into writes of ``writeBufferSize``.
  private var pending: [UInt8] = []
  private var pendingOffset: UInt64 = 0
  static let writeBufferSize = 1 << 20
  private var errorCode = ZIP_ER_OK
  private var systemError: Int32 = 0

  /// - Parameters:
  ///   - input: an open descriptor of the package, which the source takes over.
  ///   - size: the package's size in bytes.
  ///   - output: a descriptor open for reading and writing that receives the new archive, or `nil`.
  init(input: Int32, size: UInt64, output: Int32?) {
    self.input = input
    self.size = size
    self.output = output
  }

  deinit { close(input) }

  /// Answers one command; −1 after recording the error for `ZIP_SOURCE_ERROR`.
  func answer(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    switch command {
    case ZIP_SOURCE_OPEN:
      position = 0
      return 0
    case ZIP_SOURCE_READ:
      guard let data else { return fail(ZIP_ER_INVAL) }
      let count = Int(min(length, size - min(position, size)))
      guard count > 0 else { return 0 }
      let got = retrying { pread(input, data, count, off_t(position)) }
      guard got >= 0 else { return fail(ZIP_ER_READ, errno) }
      position += UInt64(got)
      return Int64(got)
    case ZIP_SOURCE_CLOSE:
      return 0
    case ZIP_SOURCE_STAT:
      guard let data, length >= MemoryLayout<zip_stat_t>.size else { return fail(ZIP_ER_INVAL) }
      let stat = data.assumingMemoryBound(to: zip_stat_t.self)
      zip_stat_init(stat)
      stat.pointee.size = size
      stat.pointee.valid |= UInt64(ZIP_STAT_SIZE)
      return Int64(MemoryLayout<zip_stat_t>.size)
    case ZIP_SOURCE_ERROR:
      guard let data, length >= 2 * MemoryLayout<Int32>.size else { return fail(ZIP_ER_INVAL) }
      let codes = data.assumingMemoryBound(to: Int32.self)
      codes[0] = errorCode
      codes[1] = systemError
      return Int64(2 * MemoryLayout<Int32>.size)
    case ZIP_SOURCE_SEEK:
      return seek(&position, in: size, data, length)
    case ZIP_SOURCE_TELL:
      return Int64(position)
    case ZIP_SOURCE_SUPPORTS:
      return output == nil ? fxbatch_zip_source_supports_seekable() : fxbatch_zip_source_supports_writable()
    default:
      return answerWrite(data, length, command)
    }
  }

  /// The write commands, which libzip sends only to a source that supports them (one with an output).
  private func answerWrite(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    guard let output else { return fail(ZIP_ER_OPNOTSUPP) }
    switch command {
    case ZIP_SOURCE_BEGIN_WRITE:
      guard ftruncate(output, 0) == 0 else { return fail(ZIP_ER_WRITE, errno) }
      (writePosition, writeLength, pendingOffset) = (0, 0, 0)
      pending.removeAll(keepingCapacity: true)
      return 0
    case ZIP_SOURCE_WRITE:
      guard let data else { return fail(ZIP_ER_INVAL) }
      // Bytes that do not follow the pending ones (libzip went back to a header), or would overfill the buffer,
      // wait until those are written (one larger than the buffer is written at once, whole).
      if writePosition != pendingOffset + UInt64(pending.count) || pending.count + Int(length) > Self.writeBufferSize {
        guard writePending(output) else { return -1 }
        pendingOffset = writePosition
      }
      pending.append(contentsOf: UnsafeRawBufferPointer(start: data, count: Int(length)))
      writePosition += length
      writeLength = max(writeLength, writePosition)
      return Int64(length)
    case ZIP_SOURCE_SEEK_WRITE:
      return seek(&writePosition, in: writeLength, data, length)
    case ZIP_SOURCE_TELL_WRITE:
      return Int64(writePosition)
    case ZIP_SOURCE_COMMIT_WRITE:
      // The caller moves the output into place after libzip returns.
      return writePending(output) ? 0 : -1
    case ZIP_SOURCE_ROLLBACK_WRITE, ZIP_SOURCE_REMOVE:
      // The caller discards the output after libzip returns.
      pending.removeAll()
      return 0
    default:
      return fail(ZIP_ER_OPNOTSUPP)
    }
  }

  /// Gives the pending bytes to the system; `false` after recording the error.
  private func writePending(_ output: Int32) -> Bool {
    guard !pending.isEmpty else { return true }
    let written = pending.withUnsafeBytes { write(output, $0, at: pendingOffset) }
    pendingOffset += UInt64(pending.count)
    pending.removeAll(keepingCapacity: true)
    return written
  }

  /// Writes all of `bytes` at `offset`; `false` after recording the error.
  private func write(_ output: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64) -> Bool {
    var done = 0
    while done < bytes.count {
      let wrote = retrying { pwrite(output, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
      guard wrote > 0 else {
        _ = fail(ZIP_ER_WRITE, wrote < 0 ? errno : ENOSPC)
        return false
      }
      done += wrote
    }
    return true
  }

  /// Moves `position` as a seek command's arguments (`zip_source_args_seek_t`) say, within `0 ... size`.
  private func seek(_ position: inout UInt64, in size: UInt64, _ data: UnsafeMutableRawPointer?, _ length: UInt64)
    -> Int64
  {
    guard let data else { return fail(ZIP_ER_INVAL) }
    let offset = zip_source_seek_compute_offset(position, size, data, length, nil)
    guard offset >= 0 else { return fail(ZIP_ER_INVAL) }
    position = UInt64(offset)
    return 0
  }

  private func fail(_ code: Int32, _ system: Int32 = 0) -> Int64 {
    (errorCode, systemError) = (code, system)
    return -1
  }

  private func retrying(_ call: () -> Int) -> Int {
    while true {
      let result = call()
      if result < 0, errno == EINTR { continue }
      return result
    }
  }
}

/// An object that answers libzip's source commands (`zip_source_function(3)`) for the source it makes.
protocol ZipSourceAnswering: AnyObject {
  /// Answers one command (not `ZIP_SOURCE_FREE`, which releases the object).
  func answer(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64
}

extension ZipSourceAnswering {
  /// A libzip source that calls back into this object and keeps it alive until libzip frees the source.
  ///
  /// - Returns: the source, or `nil` (with this object released) when libzip cannot allocate one.
  func makeSource() -> OpaquePointer? {
    let context = Unmanaged<AnyObject>.passRetained(self).toOpaque()
    var error = zip_error_t()
    zip_error_init(&error)
    defer { zip_error_fini(&error) }
    guard let source = zip_source_function_create(zipSourceCallback, context, &error) else {
      Unmanaged<AnyObject>.fromOpaque(context).release()
      return nil
    }
    return source
  }
}

/// The C callback of every source a ``ZipSourceAnswering`` object makes: `context` is the retained object,
/// released when libzip frees the source.
private func zipSourceCallback(
  _ context: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t
) -> Int64 {
  guard let context else { return -1 }
  let object = Unmanaged<AnyObject>.fromOpaque(context)
  if command == ZIP_SOURCE_FREE {
    object.release()
    return 0
  }
  guard let answering = object.takeUnretainedValue() as? any ZipSourceAnswering else { return -1 }
  return answering.answer(data, length, command)
}
