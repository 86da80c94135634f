import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ByteSink")
  struct ByteSinkTests {
    @Test func smallAndLargeWritesArriveInOrder() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let path = try directory.write([], named: "out")
      let descriptor = open(path, O_WRONLY | O_TRUNC)
      defer { close(descriptor) }
      let sink = ByteSink(descriptor: descriptor)
      let memory = ExactBytes("view;")
      // A block larger than the sink's buffer goes to the file directly, after what was buffered.
      let large = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
      try sink.write("text;")
      try sink.write(memory.view)
      try large.withUnsafeBufferPointer { try sink.write($0) }
      try sink.write(Array("end".utf8))
      // Nothing of the last write is in the file before the flush.
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 10 + large.count)
      try sink.flush()
      let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(written == Array("text;view;".utf8) + large + Array("end".utf8))
    }

    @Test func aClosedDescriptorFailsTheFlush() throws {
      let sink = ByteSink(descriptor: -1)
      try sink.write("lost")
      #expect(throws: OutputError.self) { try sink.flush() }
    }

    @Test func transferCopiesARestOfAFile() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let sourcePath = try directory.write(Array("0123456789".utf8), named: "in")
      let path = try directory.write([], named: "out")
      let source = open(sourcePath, O_RDONLY)
      defer { close(source) }
      let descriptor = open(path, O_WRONLY | O_TRUNC)
      defer { close(descriptor) }
      #expect(lseek(source, 4, SEEK_SET) == 4)
      let sink = ByteSink(descriptor: descriptor)
      try sink.write("head:")
      let copied = try sink.transfer(from: source)
      if !copied {  // the kernel cannot copy between these files: the caller copies through memory
        var rest = [UInt8](repeating: 0, count: 6)
        #expect(FileBytes.read(from: source, into: &rest) == 6)
        try sink.write(rest)
      }
      try sink.flush()
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "head:456789")
    }
  }
}
