/// How far an entry of a zip package may inflate before it is refused as a zip bomb.
///
/// Both limits are checked twice: against the sizes an entry's header declares before a byte is inflated, and
/// against the bytes actually inflated while they are read (an entry that inflates past its declared size is
/// refused at its first byte too many), so a header cannot talk its way past them.
public struct ZipLimits: Sendable, Equatable {
  /// The most bytes one entry may inflate to.
  ///
  /// 4 GiB by default: the largest entry a zip without Zip64 can hold, as Apache POI's `ZipSecureFile` allows; a
  /// one-million-row sheet of a few columns is 100 to 200 MB of XML, so honest workbooks stay far below it, and
  /// entries are streamed, so the limit bounds time and disk, not memory.
  public var entrySize: UInt64
  /// The most bytes an entry may inflate to per compressed byte, once it is past ``ratioGraceSize``.
  ///
  /// 100 by default (POI's default minimum inflate ratio is 0.01). Sheet XML of real data deflates 5 to 20 times;
  /// deflate can reach about 1032 times on a run of one byte, which only a bomb (or a padded test file) needs.
  public var compressionRatio: UInt64
  /// The inflated size below which the ratio is not checked: small parts of repeated markup (an empty sheet,
  /// styles) may deflate better than ``compressionRatio`` and are harmless. 1 MiB by default.
  public var ratioGraceSize: UInt64

  /// The defaults documented on each property.
  public static let standard = ZipLimits(entrySize: 1 << 32, compressionRatio: 100, ratioGraceSize: 1 << 20)

  public init(entrySize: UInt64, compressionRatio: UInt64, ratioGraceSize: UInt64) {
    self.entrySize = entrySize
    self.compressionRatio = compressionRatio
    self.ratioGraceSize = ratioGraceSize
  }

  /// Whether `size` inflated bytes from `compressedSize` compressed ones exceed the ratio.
  func exceedsRatio(size: UInt64, compressedSize: UInt64) -> Bool {
    guard size > ratioGraceSize else { return false }
    let (product, overflow) = max(compressedSize, 1).multipliedReportingOverflow(by: compressionRatio)
    return !overflow && size > product
  }
}
