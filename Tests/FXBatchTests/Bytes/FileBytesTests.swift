import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("FileBytes")
  struct FileBytesTests {
    @Test func readsIntoAnArrayAtAnIndexAndAtAFileOffset() throws {
      let file = try ReadBufferTests.OpenFile(Array("abcdefgh".utf8))
      var window = [UInt8](repeating: UInt8(ascii: "."), count: 6)
      #expect(FileBytes.read(from: file.descriptor, into: &window, at: 2) == 4)
      #expect(window == Array("..abcd".utf8))
      #expect(FileBytes.read(from: file.descriptor, into: &window) == 4)
      #expect(window == Array("efghcd".utf8))
      #expect(FileBytes.read(from: file.descriptor, into: &window) == 0)
      #expect(FileBytes.read(from: file.descriptor, into: &window, fileOffset: 5) == 3)
      #expect(window == Array("fghhcd".utf8))
      #expect(FileBytes.read(from: file.descriptor, into: &window, at: 6) == 0)
      #expect(window.count == 6)
      #expect(FileBytes.read(from: -1, into: &window) == -1)
    }
  }
}
