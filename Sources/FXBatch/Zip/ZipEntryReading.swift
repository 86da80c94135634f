/// Something that hands out an entry's inflated bytes in order: the entry's own ``ZipEntryStream``, or one
/// branch of a ``ZipEntryTee``.
public protocol ZipEntryReading: AnyObject {
  /// The package, for messages.
  var package: ZipPackage { get }
  /// The entry read.
  var entry: ZipEntry { get }
  /// Reads the next bytes into `buffer[index...]`, as ``ZipEntryStream/read(into:at:)``.
  func read(into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int
}

extension ZipEntryReading {
  /// Reads the next bytes into the start of `buffer`.
  public func read(into buffer: inout [UInt8]) throws(ZipError) -> Int { try read(into: &buffer, at: 0) }
}

extension ZipEntryStream: ZipEntryReading {}

/// One inflation of an entry, read by two readers at their own pace (pass 2 of a workbook: the sheet's rewriter
/// copies its bytes while libxml2 parses the same bytes for the cells' values), so that the entry is inflated
/// and checked once instead of twice.
///
/// The chunks one branch has read and the other has not are kept until the other reads them: memory holds the
/// distance between the two readers (they stay within a row of each other in pass 2), plus a chunk.
public final class ZipEntryTee {
  /// One of the two readers.
  public final class Branch: ZipEntryReading {
    private let tee: ZipEntryTee
    private let side: Int
    public var package: ZipPackage { tee.stream.package }
    public var entry: ZipEntry { tee.stream.entry }

    fileprivate init(tee: ZipEntryTee, side: Int) {
      self.tee = tee
      self.side = side
    }

    public func read(into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int {
      try tee.read(side, into: &buffer, at: index)
    }
  }

  private let stream: ZipEntryStream
  /// The bytes read from the stream that a branch has not read yet, from ``start`` (an offset in the entry).
  private var pending: [UInt8] = []
  private var start = 0
  /// Each branch's offset in the entry.
  private var positions = [0, 0]
  /// The stream's end or error, once reached: every branch gets it when it reaches the same point.
  private var ended = false
  private var failure: ZipError?
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)

  /// - Parameter stream: the entry, unread.
  public init(_ stream: ZipEntryStream) { self.stream = stream }

  /// The two readers (made once: each call makes readers of the same two positions).
  public func branches() -> (Branch, Branch) { (Branch(tee: self, side: 0), Branch(tee: self, side: 1)) }

  private func read(_ side: Int, into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int {
    precondition(index >= 0 && index < buffer.count, "ZipEntryTee: no room at \(index) of \(buffer.count)")
    if positions[side] == start + pending.count {
      if let failure { throw failure }
      if ended { return 0 }
      let got: Int
      do { got = try stream.read(into: &chunk) } catch {
        failure = error
        throw error
      }
      if got == 0 {
        ended = true
        return 0
      }
      dropReadByBoth()
      pending += chunk[..<got]
    }
    let from = positions[side] - start
    let count = min(buffer.count - index, pending.count - from)
    buffer.replaceSubrange(index..<index + count, with: pending[from..<from + count])
    positions[side] += count
    return count
  }

  /// Forgets the bytes both branches have read.
  private func dropReadByBoth() {
    let read = min(positions[0], positions[1]) - start
    guard read > 0 else { return }
    pending.removeSubrange(..<read)
    start += read
  }
}
