/// The byte scanners' one way to read more of a zip entry (``XLSXSheetScanner``, ``ODSContentScanner``): the
/// bytes of the item being read are kept (moved to the buffer's front), the buffer grows for an item that fills
/// it (up to the scanner's largest item), and the entry's inflated bytes are added after them.
enum XMLPartRefill {
  /// What a refill did.
  enum Outcome {
    /// It added bytes.
    case read
    /// The entry has no more.
    case ended
    /// The item being read fills the buffer at its largest.
    case tooLarge
    /// The entry's stream refused its bytes (now, or after the bytes the last refill added).
    case failed(ZipError)
  }

  /// Reads more of `stream` into `buffer`, whose first `loaded` bytes are read, keeping those from `start` on.
  ///
  /// It reads 256 KiB (`readSize`), or as many bytes as the unfinished item holds (an item is read again from
  /// its start after each refill: refills that grow with it keep a big row's reading linear), at most the room
  /// left, into the chunk's end (the chunk only grows, to at most an item's size). The stream hands out what one
  /// piece of the entry inflates to at a time (about 100 KiB): it is read until the refill has its bytes (a
  /// refill of one read each made a 10 MB row's reading quadratic: 1.5 s). An error after some bytes is kept in
  /// `streamError` for the next refill, so that the bytes before it are read first.
  ///
  /// - Parameter loaded: the bytes read, less `start`, plus the bytes added.
  @inline(__always)
  static func refill(
    _ stream: any ZipEntryReading, into buffer: ReadBuffer, chunk: inout [UInt8], streamError: inout ZipError?,
    loaded: inout Int, keepingFrom start: Int, readSize: Int, maximumItemSize: Int
  ) -> Outcome {
    if start > 0 {
      buffer.moveToFront(start..<loaded)
      loaded -= start
    }
    if loaded == buffer.capacity {
      guard buffer.capacity < maximumItemSize else { return .tooLarge }
      buffer.grow(keeping: loaded)
    }
    if let error = streamError { return .failed(error) }
    let wanted = min(buffer.capacity - loaded, max(readSize, loaded))
    if chunk.count < wanted { chunk = [UInt8](repeating: 0, count: wanted) }
    var got = 0
    while got < wanted {
      let offset = chunk.count - (wanted - got)
      let count: Int
      do { count = try stream.read(into: &chunk, at: offset) } catch {
        guard got > 0 else { return .failed(error) }
        streamError = error
        break
      }
      guard count > 0 else { break }
      buffer.store(chunk[offset..<(offset + count)], at: loaded + got)
      got += count
    }
    loaded += got
    return got > 0 ? .read : .ended
  }
}
