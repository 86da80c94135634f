/// Looks through an XML part's bytes, chunk by chunk as they are inflated, for a document type declaration
/// (`<!DOCTYPE`) or an entity declaration (`<!ENTITY`), in UTF-8 and in both byte orders of UTF-16 (the two
/// encodings OOXML and ODF parts may use), before a parser sees them.
///
/// Workbook parts never need a DTD; refusing any, rather than parsing one with entity expansion off, keeps
/// billion-laughs expansions and external entities (XXE) out whatever the parser's options. The scan is of the
/// whole part, not just its prolog: a declaration split across two chunks is found too (the last bytes of each
/// chunk are kept), and text that merely contains `<!DOCTYPE` inside a CDATA section is refused with it, which
/// no spreadsheet program writes.
struct XMLDeclarationScan {
  /// The declarations, each with the offset of its `!` (where the search for `!` lands).
  private static let patterns: [(bytes: [UInt8], bang: Int)] = ["<!DOCTYPE", "<!ENTITY"].flatMap {
    text -> [(bytes: [UInt8], bang: Int)] in
    let utf8 = Array(text.utf8)
    let littleEndian: [UInt8] = utf8.flatMap { [$0, 0] }
    let bigEndian: [UInt8] = utf8.flatMap { [0, $0] }
    return [(utf8, 1), (littleEndian, 2), (bigEndian, 3)]
  }
  private static let longest = patterns.map(\.bytes.count).max() ?? 0

  /// The last bytes of the chunks scanned so far (fewer than the longest pattern).
  private var tail: [UInt8] = []

  /// Scans the next chunk.
  ///
  /// - Returns: whether the bytes so far hold a declaration.
  mutating func found(in chunk: ArraySlice<UInt8>) -> Bool {
    // Where the previous chunk and this one meet: a declaration that straddles them.
    let seam = tail + chunk.prefix(Self.longest)
    if Self.contains(seam[...]) || Self.contains(chunk) { return true }
    tail = Array(chunk.count >= Self.longest ? chunk.suffix(Self.longest - 1) : seam.suffix(Self.longest - 1))
    return false
  }

  /// The index of the first `!` at or after `index` (`memchr`: every byte of every part passes here).
  private static func firstBang(in bytes: ArraySlice<UInt8>, from index: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      ByteView(buffer).firstIndex(of: UInt8(ascii: "!"), from: index - bytes.startIndex).map { $0 + bytes.startIndex }
    }
  }

  /// Whether `bytes` hold one of the patterns whole.
  private static func contains(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while let bang = Self.firstBang(in: bytes, from: index) {
      for pattern in patterns where bang - pattern.bang >= bytes.startIndex {
        let start = bang - pattern.bang
        guard start + pattern.bytes.count <= bytes.endIndex else { continue }
        if bytes[start..<start + pattern.bytes.count].elementsEqual(pattern.bytes) { return true }
      }
      index = bang + 1
    }
    return false
  }
}
