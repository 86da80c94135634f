import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ByteView")
  struct ByteViewTests {
    @Test func subscriptReadsEveryByteUpToTheLast() {
      let memory = ExactBytes("2024-01-31")
      let view = memory.view
      #expect(view.count == 10)
      #expect(view[0] == UInt8(ascii: "2"))
      #expect(view[9] == UInt8(ascii: "1"))
      #expect((0..<view.count).map { view[$0] } == Array("2024-01-31".utf8))
      #expect(Array(view) == Array("2024-01-31".utf8))
      #expect(view.text == "2024-01-31")
    }

    @Test func emptyViewWithoutAddress() {
      let view = ByteView(start: nil, count: 0)
      #expect(view.isEmpty)
      #expect(Array(view) == [])
      #expect(view.text == "")
      #expect(view.firstIndex(of: 0) == nil)
      #expect(view.buffer.baseAddress == nil)
      #expect(view.hasBytes([], at: 0))
      #expect(!view.hasBytes([1], at: 0))
      #expect(view.slice(0..<0).isEmpty)
    }

    @Test(arguments: [
      (0..<0, 0, 13), (0..<3, 3, 10), (2..<5, 3, 8), (7..<10, 3, 3), (10..<10, 0, 3), (0..<10, 10, 3),
    ])
    func sliceKeepsThePaddingAfterIt(range: Range<Int>, count: Int, padding: Int) {
      let memory = ExactBytes("abcdefghij", padding: 3)
      let slice = memory.view.slice(range)
      #expect(slice.count == count)
      #expect(slice.readablePadding == padding)
      #expect(slice.text == String("abcdefghij".dropFirst(range.lowerBound).prefix(range.count)))
      #expect(memory.view[range].text == slice.text)
    }

    @Test func sliceFromAnIndexRunsToTheEnd() {
      let memory = ExactBytes("EUR,USD\n")
      #expect(memory.view.slice(from: 4).text == "USD\n")
      #expect(memory.view.slice(from: 8).isEmpty)
      #expect(memory.view.slice(from: 8).readablePadding == 0)
      #expect(memory.view.slice(2..<6).slice(1..<3).text == ",U")
    }

    @Test func arrayCopiesARange() {
      let memory = ExactBytes([1, 2, 3, 4, 5])
      #expect(memory.view.array(1..<4) == [2, 3, 4])
      #expect(memory.view.array(5..<5) == [])
    }

    @Test func arrayCopiesTheWholeView() {
      let memory = ExactBytes([1, 2, 3, 4, 5])
      #expect(memory.view.array == [1, 2, 3, 4, 5])
      #expect(memory.view.slice(2..<5).array == [3, 4, 5])
      #expect(ByteView(start: nil, count: 0).array == [])
    }

    @Test func nativeWordIsTheBytesInMemoryOrder() {
      // The 4 bytes after the view are padding: a word from index 1 reads 3 of them.
      let memory = ExactBytes([0x01, 0x02, 0x03, 0x04, 0x05, 0x06], padding: 4, fill: 0xEE)
      withUnsafeBytes(of: memory.view.nativeWord(at: 1)) { bytes in
        #expect(Array(bytes) == [0x02, 0x03, 0x04, 0x05, 0x06, 0xEE, 0xEE, 0xEE])
      }
      #expect(UInt64(littleEndian: memory.view.nativeWord(at: 2)) == memory.view.word(at: 2))
    }

    @Test func wordIsLittleEndian() {
      let memory = ExactBytes([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])
      #expect(memory.view.word(at: 0) == 0x0807_0605_0403_0201)
      // The last word that fits the bytes exactly: 8 bytes from index 1 end at the last byte of the allocation.
      #expect(memory.view.word(at: 1) == 0x0908_0706_0504_0302)
    }

    @Test(arguments: 1...8)
    func wordNearTheEndReadsThePadding(padding: Int) {
      // 8 bytes from the last index: `padding` of them are the padding's fill, up to the allocation's end.
      let memory = ExactBytes([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48], padding: padding, fill: 0xEE)
      let offset = padding
      let expected = Self.expectedWord(
        [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48] + Array(repeating: 0xEE, count: padding), offset)
      #expect(memory.view.word(at: offset) == expected)
    }

    static func expectedWord(_ bytes: [UInt8], _ offset: Int) -> UInt64 { littleEndian(bytes[offset..<offset + 8]) }

    @Test(arguments: 0...9)
    func wordOfALengthKeepsOnlyThoseBytes(length: Int) {
      let memory = ExactBytes("ABCDEFGHIJ", padding: 8)
      let expected = littleEndian(Array("ABCDEFGHIJ".utf8).prefix(min(length, 8)))
      #expect(memory.view.word(at: 0, length: length) == expected)
      // At the last byte: one byte of the view, seven of the padding (masked away).
      if length >= 1 { #expect(memory.view.word(at: 9, length: 1) == UInt64(UInt8(ascii: "J"))) }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17])
    func wordsEqualComparesExactlyTheLength(length: Int) {
      // The same name twice, followed by different bytes: equal up to `length`, whatever follows.
      let name = Array("abcdefghijklmnopq".utf8).prefix(length)
      let bytes = Array(name) + [UInt8(ascii: "<")] + Array(name) + [UInt8(ascii: ">")]
      let memory = ExactBytes(bytes, padding: 8)
      #expect(memory.view.wordsEqual(at: 0, length + 1, length: length))
      if length > 0 {
        var changed = bytes
        changed[2 * length] ^= 1  // the other name's last byte
        let other = ExactBytes(changed, padding: 8)
        #expect(!other.view.wordsEqual(at: 0, length + 1, length: length))
      }
    }

    @Test func bytesEqualAndHasBytes() {
      let memory = ExactBytes("p:id q:id p:ix")
      let view = memory.view
      #expect(view.bytesEqual(at: 1, 6, length: 3))
      #expect(!view.bytesEqual(at: 1, 11, length: 3))
      #expect(view.bytesEqual(at: 0, 14, length: 0))
      #expect(view.hasBytes(Array("p:ix".utf8), at: 10))
      #expect(!view.hasBytes(Array("p:ixy".utf8), at: 10))
      #expect(!view.hasBytes(Array("q".utf8), at: 14))
      #expect(view.hasBytes([], at: 14))
    }

    @Test func firstIndexFindsTheFirstAtOrAfterAnIndex() {
      let memory = ExactBytes("a,b\nc,d\n")
      let view = memory.view
      #expect(view.firstIndex(of: 10) == 3)
      #expect(view.firstIndex(of: 10, from: 3) == 3)
      #expect(view.firstIndex(of: 10, from: 4) == 7)
      #expect(view.firstIndex(of: 10, from: 8) == nil)
      #expect(view.firstIndex(of: UInt8(ascii: ";")) == nil)
    }

    @Test func firstIndexDoesNotLookPastTheView() {
      let memory = ExactBytes("abc\n", padding: 4, fill: 10)
      #expect(memory.view.slice(0..<3).firstIndex(of: 10) == nil)
      // A slice's indices are its own.
      #expect(memory.view.slice(1..<4).firstIndex(of: 10) == 2)
    }

    @Test func staticTextIsItsUTF8() {
      let view = ByteView("Date,USD,€\n")
      #expect(Array(view) == Array("Date,USD,€\n".utf8))
      #expect(view.firstIndex(of: UInt8(ascii: ",")) == 4)
    }
  }
}
