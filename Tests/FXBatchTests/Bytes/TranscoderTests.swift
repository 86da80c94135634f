import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// ``Transcoder`` (glibc's iconv) and ``TextEncoding``: the round trip a CSV file not in UTF-8 makes (to a UTF-8
/// copy and back) keeps every byte, and a byte the encoding does not define is an error at its place.
@Suite("Transcoder and text encodings")
struct TranscoderTests {
  /// Windows-1252 leaves these bytes undefined.
  static let undefinedInWindows1252: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]

  /// Converts `bytes` with ``Transcoder/convert(file:from:to:into:substitute:)`` through a file.
  static func convert(
    _ bytes: [UInt8], from source: TextEncoding, to target: TextEncoding,
    substitute: ((Unicode.Scalar) -> String)? = nil
  ) throws -> Result<[UInt8], Transcoder.Failure> {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(bytes, named: "in")
    let outputPath = directory.url.appendingPathComponent("out").path
    let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #expect(descriptor >= 0)
    let sink = ByteSink(descriptor: descriptor)
    do {
      try Transcoder.convert(file: input, from: source, to: target, into: sink, substitute: substitute)
    } catch {
      close(descriptor)
      return .failure(error)
    }
    close(descriptor)
    return .success([UInt8](try Data(contentsOf: URL(fileURLWithPath: outputPath))))
  }

  /// Every byte each single-byte encoding defines (all 256 for ISO-8859-1 and -15, 251 for Windows-1252) goes to
  /// UTF-8 and back unchanged; the UTF-8 is what Foundation's own tables say for Windows-1252 and ISO-8859-1.
  @Test(arguments: [TextEncoding.windows1252, .iso88591, .iso885915])
  func everyDefinedByteRoundTrips(encoding: TextEncoding) throws {
    let bytes = (0...255).map(UInt8.init).filter {
      encoding != .windows1252 || !Self.undefinedInWindows1252.contains($0)
    }
    let utf8 = try Self.convert(bytes, from: encoding, to: .utf8).get()
    let text = try #require(String(validating: utf8, as: UTF8.self))
    #expect(text.unicodeScalars.count == bytes.count, "one character per byte")
    let foundation: String.Encoding? =
      switch encoding {
      case .windows1252: .windowsCP1252
      case .iso88591: .isoLatin1
      default: nil
      }
    if let foundation { #expect(String(bytes: bytes, encoding: foundation) == text) }
    #expect(try Self.convert(utf8, from: .utf8, to: encoding).get() == bytes)
  }

  // Spot checks by hand: € is 0x80 in Windows-1252 and 0xA4 in ISO-8859-15 (where ISO-8859-1 has ¤).
  @Test func knownCharacters() throws {
    #expect(try Self.convert([0x80, 0xE4], from: .windows1252, to: .utf8).get() == Array("€ä".utf8))
    #expect(try Self.convert([0xA4, 0xBC], from: .iso885915, to: .utf8).get() == Array("€Œ".utf8))
    #expect(try Self.convert([0xA4], from: .iso88591, to: .utf8).get() == Array("¤".utf8))
  }

  @Test(arguments: [0x81, 0x8D, 0x8F, 0x90, 0x9D] as [UInt8])
  func undefinedWindows1252ByteIsAnErrorAtItsPlace(byte: UInt8) throws {
    let bytes = Array("a;b\r\nWährung".utf8.map { $0 == 0xC3 ? 0xE4 : $0 }.filter { $0 != 0xA4 }) + [byte] + [0x0A]
    // "Währung" is 7 characters, so the byte is the 8th of line 2.
    #expect(
      try Self.convert(bytes, from: .windows1252, to: .utf8)
        == .failure(Transcoder.Failure(reason: .invalid([byte]), offset: 12, line: 2, column: 8)))
  }

  @Test func utf16RoundTripsWithItsByteOrderMark() throws {
    let text = "\u{FEFF}Währung;Betrag\r\n€;1,50 \u{1D11E}\n"
    let little = Array(text.data(using: .utf16LittleEndian)!)
    let big = Array(text.data(using: .utf16BigEndian)!)
    #expect(little.prefix(2) == [0xFF, 0xFE])
    #expect(try Self.convert(little, from: .utf16LittleEndian, to: .utf8).get() == Array(text.utf8))
    #expect(try Self.convert(Array(text.utf8), from: .utf8, to: .utf16LittleEndian).get() == little)
    #expect(try Self.convert(big, from: .utf16BigEndian, to: .utf8).get() == Array(text.utf8))
    #expect(try Self.convert(Array(text.utf8), from: .utf8, to: .utf16BigEndian).get() == big)
  }

  // An unpaired high surrogate (0xD800) before "x", and a file cut in the middle of a code unit.
  @Test func malformedUTF16IsAnError() throws {
    let unpaired: [UInt8] = [0x61, 0x00, 0x0A, 0x00, 0x62, 0x00, 0x00, 0xD8, 0x78, 0x00]
    guard case .failure(let failure) = try Self.convert(unpaired, from: .utf16LittleEndian, to: .utf8) else {
      Issue.record("an unpaired surrogate converted")
      return
    }
    #expect(failure.reason == .invalid([0x00, 0xD8]))
    #expect((failure.offset, failure.line, failure.column) == (6, 2, 2))
    guard case .failure(let cut) = try Self.convert([0x61, 0x00, 0x62], from: .utf16LittleEndian, to: .utf8) else {
      Issue.record("an odd byte count converted")
      return
    }
    #expect(cut.reason == .truncated)
  }

  // "…" is not in ISO-8859-1: without a substitute it is an error, with one it is written as "...".
  @Test func aCharacterTheTargetLacksIsSubstitutedOrAnError() throws {
    let text = Array("zu lang…, ₹\n".utf8)
    #expect(throws: Transcoder.Failure.self) { try Self.convert(text, from: .utf8, to: .iso88591).get() }
    #expect(
      try Self.convert(text, from: .utf8, to: .iso88591, substitute: BatchJob.asciiSubstitute).get()
        == Array("zu lang..., \\u{20b9}\n".utf8))
    // Windows-1252 has "…" (0x85).
    #expect(
      try Self.convert(text, from: .utf8, to: .windows1252, substitute: BatchJob.asciiSubstitute).get()
        == Array("zu lang".utf8) + [0x85] + Array(", \\u{20b9}\n".utf8))
  }

  @Test func byteOrderMarkDecidesUnlessEncodingContradictsIt() {
    #expect(TextEncoding.byteOrderMark(at: [0xFF, 0xFE, 0x41]) == .utf16LittleEndian)
    #expect(TextEncoding.byteOrderMark(at: [0xFE, 0xFF]) == .utf16BigEndian)
    #expect(TextEncoding.byteOrderMark(at: [0xEF, 0xBB, 0xBF]) == .utf8)
    #expect(TextEncoding.byteOrderMark(at: [0xEF, 0xBB]) == nil)
    #expect(TextEncoding.resolve(declared: nil, byteOrderMark: nil) == .success(.utf8))
    #expect(TextEncoding.resolve(declared: nil, byteOrderMark: .utf16BigEndian) == .success(.utf16BigEndian))
    #expect(TextEncoding.resolve(declared: .utf16, byteOrderMark: .utf16LittleEndian) == .success(.utf16LittleEndian))
    #expect(TextEncoding.resolve(declared: .windows1252, byteOrderMark: nil) == .success(.windows1252))
    #expect(TextEncoding.resolve(declared: .utf8, byteOrderMark: .utf8) == .success(.utf8))
    #expect(
      TextEncoding.resolve(declared: .windows1252, byteOrderMark: .utf8)
        == .failure(TextEncoding.Conflict(declared: .windows1252, byteOrderMark: .utf8)))
    #expect(
      TextEncoding.resolve(declared: .utf16BigEndian, byteOrderMark: .utf16LittleEndian)
        == .failure(TextEncoding.Conflict(declared: .utf16BigEndian, byteOrderMark: .utf16LittleEndian)))
    #expect(
      TextEncoding.resolve(declared: .utf16, byteOrderMark: .utf8)
        == .failure(TextEncoding.Conflict(declared: .utf16, byteOrderMark: .utf8)))
    #expect(
      TextEncoding.resolve(declared: .utf16, byteOrderMark: nil)
        == .failure(TextEncoding.Conflict(declared: .utf16, byteOrderMark: nil)))
  }
}
