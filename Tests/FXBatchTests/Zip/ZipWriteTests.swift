import Dispatch
import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// Writing a package with some entries replaced: the rest copied as stored, the output written atomically.
@Suite("Zip packages: writing", .tags(.sanitized))
struct ZipWriteTests {
  static let newSheet = Array(
    (#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<worksheet><sheetData>"
      + String(repeating: #"<row r="1"><c r="A1" t="n"><v>1234.56</v></c></row>"#, count: 200)
      + "</sheetData></worksheet>").utf8)

  /// Checks that `output` has the entries of `input` in the same order, every one not in `replaced` identical
  /// to the input's (central-directory record and stored bytes), and returns the output's entries.
  @discardableResult
  static func expectUntouchedEntriesCopied(input: String, output: String, replaced: Set<String>) throws -> RawZip {
    let before = try RawZip(Array(try Data(contentsOf: URL(fileURLWithPath: input))))
    let after = try RawZip(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    #expect(Array(after.entries.map(\.name).prefix(before.entries.count)) == before.entries.map(\.name))
    for entry in before.entries where !replaced.contains(entry.name) {
      var copy = try #require(after.entry(entry.name))
      #expect(copy.data == entry.data, "\(entry.name): its compressed bytes")
      #expect(copy.crc == entry.crc, "\(entry.name): its CRC-32")
      // libzip writes each local header with the sizes in it, so it clears bit 3 (sizes in a data descriptor
      // after the data), and sets bit 11 (UTF-8 name) only for a name that is not ASCII: LibreOffice sets both.
      #expect(copy.flags & ~0x0808 == entry.flags & ~0x0808, "\(entry.name): its flags")
      #expect(copy.flags & 0x0008 == 0, "\(entry.name): no data descriptor")
      copy.flags = entry.flags
      copy.data = entry.data
      #expect(copy == entry, "\(entry.name): its central directory record")
    }
    return after
  }

  @Test(
    "a replaced sheet, every other entry copied as it was stored",
    arguments: [
      ("libreoffice.xlsx", "xl/worksheets/sheet1.xml"), ("openpyxl.xlsx", "xl/worksheets/sheet1.xml"),
      ("libreoffice.ods", "content.xml"),
    ])
  func replacesAnEntry(name: String, entryName: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Fixture.path("Workbooks", name)
    let output = directory.path + "/converted-" + name
    let package = try ZipPackage(path: input)
    try package.write(to: output, replacing: [(entryName, .bytes(Self.newSheet))])

    let after = try Self.expectUntouchedEntriesCopied(input: input, output: output, replaced: [entryName])
    #expect(after.entries.count == package.entries.count)
    let original = try #require(try RawZip(Fixture.bytes("Workbooks", name)).entry(entryName))
    let replaced = try #require(after.entry(entryName))
    #expect(replaced.method == 8)  // deflated, as it was
    #expect(replaced.size == UInt32(Self.newSheet.count))
    #expect(replaced.crc == crc32(Self.newSheet))
    #expect(replaced.data.count < Self.newSheet.count / 10)  // deflated: 200 identical rows
    #expect(replaced.dosDate == original.dosDate && replaced.dosTime == original.dosTime)  // its time kept
    // Read back through the package reader: the new bytes, and the old bytes of every other entry.
    let written = try ZipPackage(path: output)
    #expect(try written.contents(ofEntryNamed: entryName) == Self.newSheet)
    for entry in package.entries where entry.name != entryName {
      #expect(try written.contents(ofEntryNamed: entry.name) == package.contents(of: entry), "\(entry.name)")
    }
    // Only the output was written beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["converted-" + name])
  }

  @Test func theSpreadsheetMimetypeStaysFirstAndStored() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/out.ods"
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.ods"))
      .write(to: output, replacing: [("content.xml", .bytes(Self.newSheet))])
    let mimetype = try #require(try RawZip(Array(Data(contentsOf: URL(fileURLWithPath: output)))).entries.first)
    #expect(mimetype.name == "mimetype")
    #expect(mimetype.method == 0)
    #expect(mimetype.data == Array("application/vnd.oasis.opendocument.spreadsheet".utf8))
    // ODF readers look for the media type at offset 38 of the file (ODF 1.2 part 3, 3.3).
    let head = Array(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(38 + 46))
    #expect(String(decoding: head.suffix(46), as: UTF8.self) == "application/vnd.oasis.opendocument.spreadsheet")
  }

  @Test func entriesAddedFromBytesAndFromAFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Fixture.path("Workbooks", "libreoffice.xlsx")
    let sheetFile = try directory.write(Self.newSheet, named: "sheet.xml")
    let output = directory.path + "/out.xlsx"
    try ZipPackage(path: input).write(
      to: output,
      replacing: [
        ("xl/worksheets/sheet2.xml", .file(path: sheetFile)), ("xl/new/first.xml", .bytes(Array("<a/>".utf8))),
        ("xl/new/empty.xml", .bytes([])),
      ])
    let after = try Self.expectUntouchedEntriesCopied(input: input, output: output, replaced: ["xl/worksheets/sheet2.xml"])
    #expect(after.entries.suffix(2).map(\.name) == ["xl/new/first.xml", "xl/new/empty.xml"])
    let written = try ZipPackage(path: output)
    #expect(try written.contents(ofEntryNamed: "xl/worksheets/sheet2.xml") == Self.newSheet)
    #expect(try written.contents(ofEntryNamed: "xl/new/first.xml") == Array("<a/>".utf8))
    #expect(try written.contents(ofEntryNamed: "xl/new/empty.xml") == [])
    #expect(written.entry(named: "xl/new/first.xml")?.method == .deflated)
  }

  /// `content` deflated by a ``ZipDeflater``, written in pieces of `pieces` bytes, into `stream`, which `read`
  /// reads on another thread as the package's writing does.
  ///
  /// - Returns: the size and CRC-32 the deflater counted; the stream is ended with them.
  static func deflate(_ content: [UInt8], pieces: Int, into stream: ZipDeflatedStream) throws -> (size: UInt64, crc: UInt32) {
    let deflater = ZipDeflater(into: stream)
    var offset = 0
    while offset < content.count {
      try deflater.write(Array(content[offset..<min(offset + pieces, content.count)]))
      offset += pieces
    }
    let (size, crc) = try deflater.finish()
    stream.finish(size: size, crc: crc)
    return (size, crc)
  }

  /// `content` deflated by a ``ZipDeflater`` in pieces of `pieces` bytes: the raw deflate bytes, read from its
  /// stream on another thread, and the size and CRC-32 it counted.
  static func deflate(_ content: [UInt8], pieces: Int) throws -> (bytes: [UInt8], size: UInt64, crc: UInt32) {
    let stream = ZipDeflatedStream(mayPassZip32Limits: false)
    let read = Mutex<[UInt8]>([])
    let done = DispatchSemaphore(value: 0)
    DispatchQueue(label: "test.reader").async {
      while case .chunk(let chunk) = stream.take() { read.withLock { $0 += chunk } }
      done.signal()
    }
    let (size, crc) = try deflate(content, pieces: pieces, into: stream)
    done.wait()
    return (read.withLock { $0 }, size, crc)
  }

  /// Sheet rows, some kilobytes of them.
  static let rows: [UInt8] = (1...5000).flatMap {
    Array(#"<row r="\#($0)"><c r="A\#($0)"><v>\#($0 * 7919 % 10007)</v></c></row>"#.utf8)
  }

  /// A sheet deflated by ``ZipDeflater`` as it is written, in pieces of every size, goes into the package as it
  /// comes (the deflated bytes the stream carried, the CRC-32 and size it counted) and reads back as the content.
  @Test(arguments: [1, 7, 4096, 1 << 20])
  func aDeflatedStreamIsCopiedAsItComes(piece: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Self.rows
    let expected = try Self.deflate(content, pieces: piece)
    #expect(expected.size == UInt64(content.count))
    #expect(expected.bytes.count < content.count / 3)
    let input = try Fixture.path("Workbooks", "libreoffice.xlsx")
    let output = directory.path + "/out.xlsx"
    let package = try ZipPackage(path: input)
    let stream = ZipDeflatedStream(mayPassZip32Limits: false)
    let writing = package.startWriting(to: output, replacing: [("xl/worksheets/sheet1.xml", .deflatedStream(stream))])
    let (size, crc) = try Self.deflate(content, pieces: piece, into: stream)
    try writing.wait()
    #expect(size == expected.size && crc == expected.crc)
    let after = try Self.expectUntouchedEntriesCopied(input: input, output: output, replaced: ["xl/worksheets/sheet1.xml"])
    let sheet = try #require(after.entry("xl/worksheets/sheet1.xml"))
    #expect(sheet.data == expected.bytes)
    #expect(sheet.method == 8)
    #expect(sheet.extraField.isEmpty)  // Zip32: the sizes stated before the data kept its header so
    let written = try ZipPackage(path: output)
    let entry = try #require(written.entry(named: "xl/worksheets/sheet1.xml"))
    #expect(entry.crc == crc && entry.size == size)
    #expect(try written.contents(of: entry) == content)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.xlsx"])
  }

  /// A stream that may pass 4 GiB states no sizes before its data: libzip writes its local header with a Zip64
  /// extra field (and its central record as the sizes need), and the package reads back.
  @Test func aStreamThatMayPassFourGiBHasAZip64Header() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/out.xlsx"
    let package = try ZipPackage(path: Fixture.path("Workbooks", "openpyxl.xlsx"))
    let stream = ZipDeflatedStream(mayPassZip32Limits: true)
    let writing = package.startWriting(to: output, replacing: [("xl/worksheets/sheet1.xml", .deflatedStream(stream))])
    let (size, crc) = try Self.deflate(Self.rows, pieces: 1 << 12, into: stream)
    try writing.wait()
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    let name = Array("xl/worksheets/sheet1.xml".utf8)
    // The local header: a Zip64 extra field (id 1, 16 bytes) with the inflated and deflated sizes.
    let signature: [UInt8] = [0x50, 0x4B, 3, 4]
    func isSheetHeader(_ at: Int) -> Bool {
      Array(bytes[at..<at + 4]) == signature && Array(bytes[at + 30..<at + 30 + name.count]) == name
    }
    let local = try #require((0..<(bytes.count - 30 - name.count)).first(where: isSheetHeader))
    func number(at start: Int, bytes count: Int) -> UInt64 {
      (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * UInt64($1)) }
    }
    let extra = local + 30 + name.count
    #expect(number(at: local + 28, bytes: 2) == 20)
    #expect(number(at: extra, bytes: 2) == 1 && number(at: extra + 2, bytes: 2) == 16)
    let deflatedSize = try #require(try RawZip(bytes).entry("xl/worksheets/sheet1.xml")).compressedSize
    #expect(number(at: extra + 4, bytes: 8) == size && number(at: extra + 12, bytes: 8) == UInt64(deflatedSize))
    let written = try ZipPackage(path: output)
    let entry = try #require(written.entry(named: "xl/worksheets/sheet1.xml"))
    #expect(entry.crc == crc && entry.size == size)
    #expect(try written.contents(of: entry) == Self.rows)
  }

  /// An abandoned stream fails the package's writing, which leaves nothing (and an old output as it was).
  @Test(arguments: [false, true])
  func anAbandonedStreamLeavesNoFile(outputExists: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/out.xlsx"
    if outputExists { try directory.write(Array("old".utf8), named: "out.xlsx") }
    let stream = ZipDeflatedStream(mayPassZip32Limits: false)
    let writing = try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
      .startWriting(to: output, replacing: [("xl/worksheets/sheet1.xml", .deflatedStream(stream))])
    let deflater = ZipDeflater(into: stream)
    try deflater.write(Self.rows)
    stream.abandon()
    #expect(throws: ZipError.self) { try writing.wait() }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == (outputExists ? ["out.xlsx"] : []))
    if outputExists { #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))) == Array("old".utf8)) }
  }

  /// A stream freed with chunks still waiting (abandoned while its writer was busy elsewhere) is freed quietly
  /// (libdispatch traps when a semaphore is freed with fewer permits than it was made with).
  @Test func aStreamFreedWithChunksWaitingIsFine() throws {
    for waiting in [1, ZipDeflatedStream.chunksInFlight] {
      let stream = ZipDeflatedStream(mayPassZip32Limits: false)
      for _ in 0..<waiting { try [UInt8](repeating: 7, count: 100).withUnsafeBufferPointer { try stream.put($0) } }
      stream.abandon()
      #expect(stream.ended == .abandoned)
    }
  }

  /// Bytes that do not deflate: `count` pseudo-random ones.
  static func noise(_ count: Int) -> [UInt8] {
    var seed: UInt64 = 1
    return (0..<count).map { _ -> UInt8 in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: seed >> 33)
    }
  }

  /// A package's writing that fails before it reads the stream (here, its output cannot be made) stops the
  /// deflater, whose writes then fail instead of waiting for room for ever; the writing's error is the reason.
  @Test func aWritingThatFailsStopsTheDeflater() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let nowhere = directory.path + "/no/such/out.xlsx"
    let stream = ZipDeflatedStream(mayPassZip32Limits: false)
    let writing = try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
      .startWriting(to: nowhere, replacing: [("xl/worksheets/sheet1.xml", .deflatedStream(stream))])
    let deflater = ZipDeflater(into: stream)
    let block = Self.noise(1 << 16)
    var thrown: OutputError? = nil
    for _ in 0..<(4 * ZipDeflatedStream.chunksInFlight + 2 * ZipDeflater.blocksInFlight) {
      do throws(OutputError) { try deflater.write(block) } catch {
        thrown = error
        break
      }
    }
    #expect(thrown == .writeFailed(reason: "the package's writing has stopped"))
    // What the deflater's error says: the writing has stopped, and its own error is the one to report.
    #expect(stream.writerStopped)
    #expect(throws: ZipError.writeFailed(path: nowhere, reason: "cannot create \(nowhere): No such file or directory")) {
      try writing.wait()
    }
    #expect(writing.failure != nil)
  }

  /// The deflate runs on the deflater's own thread: a stream whose reader stopped fails a later
  /// ``ZipDeflater/write(_:)`` (at the latest once the blocks in flight are taken) and then ``ZipDeflater/finish()``.
  @Test func aWriteErrorOfTheDeflatersThreadIsThrownByTheCaller() throws {
    let stream = ZipDeflatedStream(mayPassZip32Limits: false)
    stream.stopReading()
    let deflater = ZipDeflater(into: stream)
    let block = Self.noise(1 << 16)
    let refused = OutputError.writeFailed(reason: "the package's writing has stopped")
    var thrown: OutputError? = nil
    for _ in 0..<(8 + 2 * ZipDeflater.blocksInFlight) {
      do throws(OutputError) { try deflater.write(block) } catch {
        thrown = error
        break
      }
    }
    #expect(thrown == refused)
    #expect(throws: refused) { try deflater.finish() }
  }

  @Test func nothingReplacedIsTheSameFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/out.xlsx"
    try ZipPackage(path: Fixture.path("Workbooks", "openpyxl.xlsx")).write(to: output, replacing: [])
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))) == (try Fixture.bytes("Workbooks", "openpyxl.xlsx")))
  }

  @Test func aFailedWriteLeavesNoFileAndTheOldOneAlone() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let package = try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
    let missing = directory.path + "/missing-sheet.xml"
    let output = directory.path + "/out.xlsx"
    #expect(throws: ZipError.self) {
      try package.write(to: output, replacing: [("xl/worksheets/sheet1.xml", .file(path: missing))])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    // An output that exists stays as it was.
    try directory.write(Array("old".utf8), named: "out.xlsx")
    #expect(throws: ZipError.self) {
      try package.write(to: output, replacing: [("xl/worksheets/sheet1.xml", .file(path: missing))])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.xlsx"])
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))) == Array("old".utf8))
    // An entry replaced twice is refused before anything is written.
    #expect(throws: ZipError.writeFailed(path: output, reason: "a.xml is replaced twice")) {
      try package.write(to: output, replacing: [("a.xml", .bytes([])), ("a.xml", .bytes([]))])
    }
    // A directory that does not exist.
    let nowhere = directory.path + "/no/such/out.xlsx"
    #expect(throws: ZipError.writeFailed(path: nowhere, reason: "cannot create \(nowhere): No such file or directory")) {
      try package.write(to: nowhere, replacing: [("xl/worksheets/sheet1.xml", .bytes([]))])
    }
  }

  @Test func theInputIsNeverTouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let original = try Fixture.bytes("Workbooks", "libreoffice.xlsx")
    let input = try directory.write(original, named: "book.xlsx")
    let package = try ZipPackage(path: input)
    try package.write(to: directory.path + "/out.xlsx", replacing: [("xl/worksheets/sheet1.xml", .bytes(Self.newSheet))])
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: input))) == original)
    // Writing over the input itself replaces it whole, through a rename: the open package still reads the old one.
    try package.write(to: input, replacing: [("xl/worksheets/sheet1.xml", .bytes(Self.newSheet))])
    #expect(try ZipPackage(path: input).contents(ofEntryNamed: "xl/worksheets/sheet1.xml") == Self.newSheet)
    let oldSheet = try #require(package.entry(named: "xl/worksheets/sheet1.xml"))
    #expect(try package.contents(of: oldSheet).count == Int(oldSheet.size))
    #expect(oldSheet.size != UInt64(Self.newSheet.count))
  }

  /// libzip writes a package straight into a regular output's temporary file; a pipe or device, which it cannot
  /// seek in, gets the same bytes through an unnamed temporary file, and a device that refuses them an error.
  @Test func aPipeGetsTheBytesAFileGets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let package = try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
    let replacing: [(name: String, content: ZipEntryContent)] = [("xl/worksheets/sheet1.xml", .bytes(Self.newSheet))]
    let file = directory.path + "/out.xlsx"
    try package.write(to: file, replacing: replacing)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.xlsx"])
    let pipe = directory.path + "/pipe"
    #expect(mkfifo(pipe, 0o600) == 0)
    let received = Mutex<Data?>(nil)
    let reader = Thread {
      let data = FileHandle(forReadingAtPath: pipe)?.readDataToEndOfFile()
      received.withLock { $0 = data }
    }
    reader.start()
    try package.write(to: pipe, replacing: replacing)
    while !reader.isFinished { usleep(1000) }
    let bytes = try #require(received.withLock { $0 })
    #expect(Array(bytes) == Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    #expect(throws: ZipError.self) { try package.write(to: "/dev/full", replacing: replacing) }
  }
}
