@preconcurrency import CISAL
import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Entries read through ISA-L's inflate (``ZipEntryStream``), in packages built here byte by byte so that each
/// lies in one way: corrupt or cut-short deflate data, a wrong checksum, a wrong size; and stored and empty
/// entries, which keep libzip's path.
@Suite("Zip packages: inflating entries", .tags(.sanitized))
struct ZipInflateTests {
  static let name = "xl/worksheets/sheet1.xml"

  /// Sheet rows, varied enough that their deflate data is several 64 KiB blocks long for a few MB.
  static func content(rows: Int) -> [UInt8] {
    var bytes = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) + Array("\n<worksheet><sheetData>".utf8)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for row in 1...max(rows, 1) {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes += Array(#"<row r="\#(row)"><c r="A\#(row)"><v>\#(seed >> 20)</v></c></row>"#.utf8)
    }
    return bytes + Array("</sheetData></worksheet>".utf8)
  }

  /// `content` as raw deflate data (``ZipDeflater``, which ``ZipWriteTests`` checks against libzip's reading).
  static func deflated(_ content: [UInt8]) throws -> [UInt8] {
    try ZipWriteTests.deflate(content, pieces: 1 << 16).bytes
  }

  /// One entry of a package, as both its local header and the central directory declare it.
  struct Entry {
    var name = ZipInflateTests.name
    var method: UInt16
    var data: [UInt8]
    var crc: UInt32
    var size: UInt32
    /// What the local header declares instead, when it disagrees with the central directory.
    var local: (crc: UInt32, compressedSize: UInt32, size: UInt32)? = nil
  }

  /// A zip package of these entries (APPNOTE.TXT 4.3: local headers and data, central directory, end record).
  static func package(_ entries: [Entry]) -> [UInt8] {
    func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16)) }
    var bytes: [UInt8] = []
    var central: [UInt8] = []
    for entry in entries {
      let name = Array(entry.name.utf8)
      // Version 2.0, no flags, the method, 1980-01-01 00:00, the CRC-32 and sizes, the name's length, no extra.
      func common(crc: UInt32, compressedSize: UInt32, size: UInt32) -> [UInt8] {
        u16(20) + u16(0) + u16(entry.method) + u16(0) + u16(0x21) + u32(crc) + u32(compressedSize) + u32(size)
          + u16(UInt16(name.count)) + u16(0)
      }
      let declared = (crc: entry.crc, compressedSize: UInt32(entry.data.count), size: entry.size)
      central +=
        u32(0x0201_4B50) + u16(20) + common(crc: declared.crc, compressedSize: declared.compressedSize, size: declared.size)
        + u16(0) + u16(0) + u16(0) + u32(0) + u32(UInt32(bytes.count)) + name
      let local = entry.local ?? declared
      bytes +=
        u32(0x0403_4B50) + common(crc: local.crc, compressedSize: local.compressedSize, size: local.size) + name
        + entry.data
    }
    let count = u16(UInt16(entries.count))
    let end = u32(0x0605_4B50) + u16(0) + u16(0) + count + count + u32(UInt32(central.count)) + u32(UInt32(bytes.count))
    return bytes + central + end + u16(0)
  }

  /// The entry read in chunks of `chunk` bytes.
  static func read(_ path: String, chunk: Int) throws -> [UInt8] {
    let package = try ZipPackage(path: path)
    return try ZipPackageTests.streamed(package, try #require(package.entry(named: name)), chunk: chunk)
  }

  @Test func isalCRC32IsZlibsInAnyPieces() {
    let bytes = Self.content(rows: 2000)
    for piece in [1, 7, 4096, bytes.count] {
      var crc: UInt32 = 0
      var offset = 0
      while offset < bytes.count {
        let end = min(offset + piece, bytes.count)
        bytes[offset..<end].withUnsafeBufferPointer { crc = crc32_gzip_refl(crc, $0.baseAddress, UInt64($0.count)) }
        offset = end
      }
      #expect(crc == crc32(bytes), "in pieces of \(piece)")
    }
    #expect(crc32_gzip_refl(0, nil, 0) == crc32([]))
  }

  @Test func aDeflatedEntryOfManyCompressedBlocksReadsWholeInChunksOfAnySize() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Self.content(rows: 60_000)
    let data = try Self.deflated(content)
    #expect(data.count > 3 << 16)
    let path = try directory.write(
      Self.package([Entry(method: 8, data: data, crc: crc32(content), size: UInt32(content.count))]), named: "big.xlsx")
    for chunk in [4096, 1 << 16, 1 << 20] {
      #expect(try Self.read(path, chunk: chunk) == content, "in chunks of \(chunk)")
    }
    let small = Array(content.prefix(3000))
    let smallPath = try directory.write(
      Self.package([Entry(method: 8, data: try Self.deflated(small), crc: crc32(small), size: 3000)]),
      named: "small.xlsx")
    for chunk in [1, 2, 7] {
      #expect(try Self.read(smallPath, chunk: chunk) == small, "in chunks of \(chunk)")
    }
  }

  @Test func corruptDeflateData() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A final block of the reserved type 3.
    let invalid: [UInt8] = [0x07, 0x00, 0x00, 0x00]
    let path = try directory.write(Self.package([Entry(method: 8, data: invalid, crc: 0, size: 10)]), named: "bad.xlsx")
    #expect(
      throws: ZipError.readFailed(
        path: path, entry: Self.name, reason: "its deflate data is corrupt (ISA-L error -1): the file is damaged")
    ) { try ZipPackage(path: path).contents(ofEntryNamed: Self.name) }
    // Bytes changed in the middle of real deflate data: refused, whichever check catches it first.
    let content = Self.content(rows: 5000)
    var data = try Self.deflated(content)
    for offset in stride(from: data.count / 2, to: data.count / 2 + 64, by: 1) { data[offset] ^= 0x5A }
    let changed = try directory.write(
      Self.package([Entry(method: 8, data: data, crc: crc32(content), size: UInt32(content.count))]), named: "changed.xlsx")
    #expect(throws: ZipError.self) { try ZipPackage(path: changed).contents(ofEntryNamed: Self.name) }
  }

  @Test func deflateDataCutShort() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Small enough that a single byte of it stays within the compression ratio's grace size.
    let content = Self.content(rows: 5000)
    let data = try Self.deflated(content)
    for length in [1, data.count / 2, data.count - 1] {
      let path = try directory.write(
        Self.package([Entry(method: 8, data: Array(data.prefix(length)), crc: crc32(content), size: UInt32(content.count))]),
        named: "cut-\(length).xlsx")
      #expect(
        throws: ZipError.readFailed(path: path, entry: Self.name, reason: "its deflate data is cut short: the file is damaged"),
        "cut at \(length)"
      ) { try ZipPackage(path: path).contents(ofEntryNamed: Self.name) }
    }
  }

  @Test(arguments: [UInt16(8), 0])
  func aWrongChecksum(method: UInt16) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Self.content(rows: 3000)
    let data = method == 8 ? try Self.deflated(content) : content
    let path = try directory.write(
      Self.package([Entry(method: method, data: data, crc: crc32(content) ^ 1, size: UInt32(content.count))]),
      named: "crc.xlsx")
    #expect(
      throws: ZipError.readFailed(
        path: path, entry: Self.name, reason: "its checksum (CRC-32) does not match its data: the file is damaged")
    ) { try ZipPackage(path: path).contents(ofEntryNamed: Self.name) }
  }

  @Test func storedAndEmptyEntries() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Self.content(rows: 3000)
    let empty = "xl/empty.xml"
    let storedEmpty = "xl/stored-empty.xml"
    let path = try directory.write(
      Self.package([
        Entry(method: 0, data: content, crc: crc32(content), size: UInt32(content.count)),
        // An empty deflated entry: one empty final block of fixed codes, as zlib and Python write it.
        Entry(name: empty, method: 8, data: [0x03, 0x00], crc: 0, size: 0),
        Entry(name: storedEmpty, method: 0, data: [], crc: 0, size: 0),
      ]), named: "stored.xlsx")
    let package = try ZipPackage(path: path)
    #expect(package.entry(named: Self.name)?.method == .stored)
    for chunk in [1, 4096] {
      #expect(try Self.read(path, chunk: chunk) == content, "in chunks of \(chunk)")
    }
    #expect(try package.contents(ofEntryNamed: empty) == [])
    #expect(try package.contents(ofEntryNamed: storedEmpty) == [])
    try package.inflateEveryEntry()
    // An empty entry whose deflate data holds a byte.
    let one = try directory.write(
      Self.package([Entry(method: 8, data: [0x4B, 0x04, 0x00], crc: crc32([0x61]), size: 0)]), named: "one.xlsx")
    #expect(throws: ZipError.inflatesPastDeclaredSize(path: one, entry: Self.name, declared: 0)) {
      try ZipPackage(path: one).contents(ofEntryNamed: Self.name)
    }
  }

  @Test(arguments: [UInt16(8), 0])
  func entriesThatInflatePastOrShortOfTheirDeclaredSize(method: UInt16) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Self.content(rows: 20_000)
    let data = method == 8 ? try Self.deflated(content) : content
    let size = UInt32(content.count)
    let past = try directory.write(
      Self.package([Entry(method: method, data: data, crc: crc32(content), size: size - 1000)]), named: "past.xlsx")
    let package = try ZipPackage(path: past)
    let stream = try package.stream(try #require(package.entry(named: Self.name)))
    var buffer = [UInt8](repeating: 0, count: 4096)
    #expect(throws: ZipError.inflatesPastDeclaredSize(path: past, entry: Self.name, declared: UInt64(size - 1000))) {
      while try stream.read(into: &buffer) > 0 {}
    }
    // Never a byte more than the declared size and one.
    #expect(stream.inflated == UInt64(size - 1000) + 1)
    #expect(try stream.read(into: &buffer) == 0)
    // Only the deflated path can tell a short entry from its data (a stored one's data is its size).
    guard method == 8 else { return }
    let short = try directory.write(
      Self.package([Entry(method: method, data: data, crc: crc32(content), size: size + 20)]), named: "short.xlsx")
    #expect(
      throws: ZipError.inflatesShortOfDeclaredSize(
        path: short, entry: Self.name, declared: UInt64(size + 20), inflated: UInt64(size))
    ) { try ZipPackage(path: short).contents(ofEntryNamed: Self.name) }
  }
}
