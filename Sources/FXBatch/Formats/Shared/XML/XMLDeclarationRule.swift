/// The XML declaration (§2.8 `XMLDecl`) the byte scanners (``XMLSimpleScanner``, ``XLSXSheetScanner``) read:
/// `<?xml version="1.0"`, then optionally `encoding` (UTF-8, UTF8, US-ASCII or ASCII, in any case) and
/// `standalone` (`yes` or `no`), in that order, in `"` or `'`, then `?>`; anything else makes them decline.
enum XMLDeclarationRule {
  /// What the declaration says.
  enum Reading: Equatable {
    /// A declaration ending before `end`; its encoding's name as written (`UTF-8` when it names none), and
    /// whether that encoding is US-ASCII.
    case declaration(end: Int, encodingName: String, asciiOnly: Bool)
    /// The bytes read so far end inside it.
    case needsMore
    /// Outside the subset: why (not shown to users).
    case refused(String)
  }

  private struct NeedsMore: Error {}

  /// Reads the declaration whose `<?xml` is at `index` of `bytes`, whose first `loaded` bytes are read.
  static func read(_ bytes: ByteView, at index: Int, loaded: Int) -> Reading {
    do {
      return try declaration(bytes, at: index, loaded: loaded)
    } catch {
      return .needsMore
    }
  }

  private static func declaration(_ bytes: ByteView, at index: Int, loaded: Int) throws(NeedsMore) -> Reading {
    func byte(_ at: Int) throws(NeedsMore) -> UInt8 {
      guard at < loaded else { throw NeedsMore() }
      return bytes[at]
    }
    func starts(_ text: String, at: Int) throws(NeedsMore) -> Bool {
      var cursor = at
      for unit in text.utf8 {
        guard try byte(cursor) == unit else { return false }
        cursor += 1
      }
      return true
    }
    var at = index + 5
    /// A pseudo-attribute's value (`nil` when the next one is not `name`), or why the declaration is refused.
    func attribute(_ name: String) throws(NeedsMore) -> Result<[UInt8]?, Refusal> {
      var cursor = at
      var spaces = 0
      while XMLCharacterRule.isSpace(try byte(cursor)) {
        cursor += 1
        spaces += 1
      }
      guard spaces > 0, try starts(name, at: cursor) else { return .success(nil) }
      cursor += name.utf8.count
      while XMLCharacterRule.isSpace(try byte(cursor)) { cursor += 1 }
      guard try byte(cursor) == UInt8(ascii: "=") else { return .failure(Refusal("a malformed XML declaration")) }
      cursor += 1
      while XMLCharacterRule.isSpace(try byte(cursor)) { cursor += 1 }
      let quote = try byte(cursor)
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        return .failure(Refusal("a malformed XML declaration"))
      }
      var close = cursor + 1
      while try byte(close) != quote {
        guard close - cursor < 64 else { return .failure(Refusal("a malformed XML declaration")) }
        close += 1
      }
      at = close + 1
      return .success(bytes.array(cursor + 1..<close))
    }
    switch try attribute("version") {
    case .success(let version) where version == Array("1.0".utf8): break
    case .success: return .refused("an XML declaration without version 1.0")
    case .failure(let refusal): return .refused(refusal.reason)
    }
    var encodingName = "UTF-8"
    var asciiOnly = false
    switch try attribute("encoding") {
    case .success(let encoding?):
      let name = String(decoding: encoding, as: UTF8.self)
      switch name.uppercased() {
      case "UTF-8", "UTF8": encodingName = "UTF-8"
      case "US-ASCII", "ASCII":
        encodingName = name
        asciiOnly = true
      default: return .refused("the encoding \(name)")
      }
    case .success(nil): break
    case .failure(let refusal): return .refused(refusal.reason)
    }
    switch try attribute("standalone") {
    case .success(let standalone?):
      guard standalone == Array("yes".utf8) || standalone == Array("no".utf8) else {
        return .refused("a malformed XML declaration")
      }
    case .success(nil): break
    case .failure(let refusal): return .refused(refusal.reason)
    }
    while XMLCharacterRule.isSpace(try byte(at)) { at += 1 }
    guard try starts("?>", at: at) else { return .refused("a malformed XML declaration") }
    return .declaration(end: at + 2, encodingName: encodingName, asciiOnly: asciiOnly)
  }

  private struct Refusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
  }
}
