import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ReadBuffer")
  struct ReadBufferTests {
    /// An open file holding `bytes`, closed when the test is done.
    final class OpenFile {
      let directory: TemporaryDirectory
      let descriptor: Int32

      init(_ bytes: [UInt8]) throws {
        directory = try TemporaryDirectory()
        descriptor = open(try directory.write(bytes, named: "input"), O_RDONLY)
      }

      deinit {
        close(descriptor)
        directory.remove()
      }
    }

    static let digits = Array("0123456789".utf8)

    @Test func newBufferIsZeroedThroughItsPadding() {
      let buffer = ReadBuffer(capacity: 8, padding: 16)
      let view = buffer.view(count: 8)
      #expect(Array(view) == Array(repeating: 0, count: 8))
      #expect(view.readablePadding == 16)
      // The last word of the allocation: its padding's last 8 bytes.
      #expect(view.word(at: 16) == 0)
      #expect(buffer.view(count: 0).readablePadding == 24)
    }

    @Test func readsAtTheFilePositionUntilTheEnd() throws {
      let file = try OpenFile(Self.digits)
      let buffer = ReadBuffer(capacity: 6, padding: 2)
      #expect(buffer.read(from: file.descriptor, into: 0, count: 6) == 6)
      #expect(buffer.read(from: file.descriptor, into: 0, count: 0) == 0)
      #expect(buffer.view(count: 6).text == "012345")
      // The rest of the file at the end of the capacity: 4 of the 5 bytes asked for exist.
      #expect(buffer.read(from: file.descriptor, into: 1, count: 5) == 4)
      #expect(buffer.view(count: 5).text == "06789")
      #expect(buffer.read(from: file.descriptor, into: 0, count: 6) == 0)
    }

    @Test func readsAtAFileOffset() throws {
      let file = try OpenFile(Self.digits)
      let buffer = ReadBuffer(capacity: 4, padding: 0)
      #expect(buffer.read(from: file.descriptor, into: 0, count: 4, fileOffset: 7) == 3)
      #expect(buffer.view(count: 3).text == "789")
      #expect(buffer.read(from: file.descriptor, into: 0, count: 4, fileOffset: 10) == 0)
      // `pread` leaves the file position alone.
      #expect(buffer.read(from: file.descriptor, into: 0, count: 4) == 4)
      #expect(buffer.view(count: 4).text == "0123")
    }

    @Test func aReadErrorIsReported() {
      let buffer = ReadBuffer(capacity: 4, padding: 0)
      #expect(buffer.read(from: -1, into: 0, count: 4) == -1)
      #expect(errno == EBADF)
    }

    @Test(arguments: [0..<0, 0..<10, 3..<10, 9..<10, 4..<7, 10..<10])
    func moveToFrontKeepsTheRange(range: Range<Int>) throws {
      let file = try OpenFile(Self.digits)
      let buffer = ReadBuffer(capacity: 10, padding: 4)
      #expect(buffer.read(from: file.descriptor, into: 0, count: 10) == 10)
      buffer.moveToFront(range)
      #expect(Array(buffer.view(count: range.count)) == Array(Self.digits[range]))
    }

    @Test func growDoublesAndKeepsTheBytes() throws {
      let file = try OpenFile(Self.digits + Self.digits)
      let buffer = ReadBuffer(capacity: 8, padding: 16)
      #expect(buffer.read(from: file.descriptor, into: 0, count: 8) == 8)
      buffer.grow(keeping: 5)
      #expect(buffer.capacity == 16)
      #expect(buffer.padding == 16)
      let view = buffer.view(count: 16)
      #expect(view.text.utf8.prefix(5).elementsEqual("01234".utf8))
      #expect(Array(view)[5...] == Array(repeating: 0, count: 11)[...])
      #expect(view.readablePadding == 16)
      #expect(view.word(at: 24) == 0)  // the new allocation's last word
      // Room to the end of the new capacity.
      #expect(buffer.read(from: file.descriptor, into: 5, count: 11) == 11)
      #expect(buffer.view(count: 16).text == "0123489012345678")
    }
  }
}
