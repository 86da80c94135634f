import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The one parts runner: parts' outputs joined in order, findings in order, errors in part order, no temporary
/// file left behind.
@Suite("Parts runner")
struct PartsRunnerTests {
  struct PartFailed: Error, Equatable { let part: Int }

  private static let prefix = "fxbatch-runner-test-part"

  private static func leftBehind() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix(prefix) }
  }

  @Test(arguments: [1, 2, 3, 8])
  func outputsAreJoinedInPartOrder(parts: Int) throws {
    let directory = try TemporaryDirectory()
    let path = (directory.path as NSString).appendingPathComponent("out.txt")
    let file = try AtomicFile(path: path)
    let results = try PartsRunner.convert(parts: parts, into: file.sink, temporaryPrefix: Self.prefix) { part, sink in
      // Part 0 writes more than the sink buffers, so its own writes interleave with nothing.
      let line = String(repeating: "\(part)", count: part == 0 ? 300_000 : 3) + "\n"
      try sink.write(line)
      try sink.flush()
      return part * 10
    }
    try file.commit()
    #expect(results == (0..<parts).map { $0 * 10 })
    let expected = (0..<parts).map { String(repeating: "\($0)", count: $0 == 0 ? 300_000 : 3) + "\n" }.joined()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    #expect(try Self.leftBehind().isEmpty)
  }

  @Test func theFirstFailingPartInPartOrderIsThrownAndNothingIsLeftBehind() throws {
    let directory = try TemporaryDirectory()
    let file = try AtomicFile(path: (directory.path as NSString).appendingPathComponent("out.txt"))
    defer { file.discard() }
    #expect(throws: PartFailed(part: 2)) {
      _ = try PartsRunner.convert(parts: 5, into: file.sink, temporaryPrefix: Self.prefix) { part, sink in
        try sink.write("part \(part)\n")
        if part == 2 || part == 4 { throw PartFailed(part: part) }
        return part
      }
    }
    #expect(try Self.leftBehind().isEmpty)
  }

  @Test func scanGivesEveryPartsFindingsInOrder() {
    let results = PartsRunner.scan(parts: 6) { part -> Int in
      if part == 3 { throw PartFailed(part: 3) }
      return part * part
    }
    #expect(results.count == 6)
    for (part, result) in results.enumerated() {
      if part == 3 {
        #expect(throws: PartFailed(part: 3)) { try result.get() }
      } else {
        #expect((try? result.get()) == part * part)
      }
    }
  }

  // Found by trying to break it: `kill -9` left part files in $TMPDIR. A part's file has no name from the start.
  @Test func aPartsFileHasNoNameAndReadsBackWhatWasWritten() throws {
    let descriptor = try UnnamedTemporaryFile.create(prefix: Self.prefix)
    defer { close(descriptor) }
    #expect(try Self.leftBehind().isEmpty, "unlinked as soon as it is made")
    let sink = ByteSink(descriptor: descriptor)
    try sink.write("part one\n")
    try sink.flush()
    let directory = try TemporaryDirectory()
    let path = (directory.path as NSString).appendingPathComponent("out.txt")
    let file = try AtomicFile(path: path)
    try file.sink.write("head\n")
    try PartsRunner.append(descriptor, to: file.sink)
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "head\npart one\n")
  }
}
