import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ByteBuffer and ByteCursor")
  struct ByteBufferTests {
    @Test func appendsGrowAndKeepTheBytes() {
      var buffer = ByteBuffer(capacity: 1)
      #expect(buffer.capacity == 64)  // the smallest capacity
      var expected: [UInt8] = []
      for round in 0..<50 {
        let piece = Array("record \(round);".utf8)
        buffer.append(piece)
        buffer.append(UInt8(ascii: "\n"))
        expected += piece + [UInt8(ascii: "\n")]
      }
      #expect(buffer.count == expected.count)
      #expect(buffer.capacity >= expected.count)
      #expect(Array(buffer.bytes) == expected)
      buffer.removeAll()
      #expect(buffer.count == 0)
      #expect(Array(buffer.bytes) == [])
    }

    @Test func appendsAViewAndABufferPointer() {
      let memory = ExactBytes("EUR,USD,1.5\r\n")
      var buffer = ByteBuffer(capacity: 64)
      buffer.append(memory.view.slice(0..<11))
      buffer.append(memory.buffer)
      buffer.append(ByteView(start: nil, count: 0))
      #expect(Array(buffer.bytes) == Array("EUR,USD,1.5EUR,USD,1.5\r\n".utf8))
    }

    /// Appends of every short length (copied as bytes, as two overlapping words, or by memmove), from memory
    /// of exactly their size (ASan catches a byte read past it) into storage they fill to its last byte.
    @Test(arguments: 0...40)
    func appendsOfEveryShortLength(length: Int) {
      let source = ExactBytes((0..<length).map { UInt8(65 + $0 % 26) })
      for used in [0, 1, 7, 13] {
        var buffer = ByteBuffer(capacity: used + length)
        buffer.append([UInt8](repeating: UInt8(ascii: "."), count: used))
        buffer.append(source.view)
        #expect(Array(buffer.bytes) == Array(repeating: UInt8(ascii: "."), count: used) + Array(source.view.buffer))
      }
    }

    @Test func reservationAtTheEndOfTheStorage() {
      // 64 bytes of storage: 40 used, then a reservation of exactly the 24 left, filled to its last byte.
      var buffer = ByteBuffer(capacity: 64)
      buffer.append([UInt8](repeating: UInt8(ascii: "a"), count: 40))
      buffer.append(maximum: 24) { cursor in
        for _ in 0..<24 { cursor.put(UInt8(ascii: "b")) }
        #expect(cursor.room == 0)
      }
      #expect(buffer.capacity == 64)
      #expect(
        Array(buffer.bytes) == Array(repeating: UInt8(ascii: "a"), count: 40) + Array(repeating: UInt8(ascii: "b"), count: 24))
      // One more byte than there is room for: the buffer grows first, and keeps what it had.
      buffer.append(maximum: 1) { cursor in
        #expect(cursor.room == 1)
        cursor.put(UInt8(ascii: "c"))
      }
      #expect(buffer.capacity == 128)
      #expect(buffer.count == 65)
      #expect(Array(buffer.bytes).last == UInt8(ascii: "c"))
    }

    @Test func makeUniqueGivesACopyItsOwnStorage() {
      var first = ByteBuffer(capacity: 64)
      first.append(Array("shared".utf8))
      var second = first
      second.makeUnique()
      #expect(second.count == 0)
      second.append(Array("other".utf8))
      first.append(Array("!".utf8))
      #expect(Array(first.bytes) == Array("shared!".utf8))
      #expect(Array(second.bytes) == Array("other".utf8))
    }

    /// Writes with a cursor into a reservation of exactly `reserved` bytes at the end of a 64-byte storage.
    static func written(reserved: Int, _ body: (inout ByteCursor) -> Void) -> [UInt8] {
      var buffer = ByteBuffer(capacity: 64)
      buffer.append([UInt8](repeating: UInt8(ascii: "-"), count: 64 - reserved))
      buffer.append(maximum: reserved) { cursor in body(&cursor) }
      #expect(buffer.capacity == 64)
      return Array(Array(buffer.bytes)[(64 - reserved)...])
    }

    @Test(arguments: [0, 1, 7, 8, 9, 31, 32, 33, 40])
    func putShortCopiesExactlyTheCount(count: Int) {
      // The source has `wordCopyLimit` readable bytes after the text, as the templates and tables keep them.
      let text = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn".utf8).prefix(count)
      let source = ExactBytes(Array(text), padding: ByteCursor.wordCopyLimit, fill: 0xEE)
      // Room for the word copies after the text, up to the storage's last byte.
      let reserved = max(count, 0) + ByteCursor.wordCopyLimit
      let output = Self.written(reserved: min(reserved, 64)) { cursor in
        cursor.putShort(source.view)
      }
      #expect(output == Array(text))
    }

    @Test func putsBytesWordsAndDecimals() {
      let text = ExactBytes("fx_rate")
      let output = Self.written(reserved: 64) { cursor in
        cursor.put(UInt8(ascii: "["))
        cursor.put(text.view)
        cursor.put(ByteView(start: nil, count: 0))
        cursor.put(UInt8(ascii: "="))
        cursor.put(ExactDecimal(significand: -123_405, scale: 4))
        cursor.put(UInt8(ascii: ","))
        cursor.putWord(0x6B63_6162_6C6C_6166, count: 8)  // "fallback"
        cursor.putWord(0x6B6F, count: 2)  // "ok"
      }
      // The last putWord stores 8 bytes but moves by 2: the reservation must have room for the 6 after.
      #expect(output == Array("[fx_rate=-12.3405,fallbackok".utf8))
    }

    @Test func putsArraysPiecesAndDecimalsWithAMark() {
      let template = AnnotationTemplate.jsonMembers
      var buffer = ByteBuffer(capacity: 64)
      buffer.append(maximum: 128, copyingFrom: template.bytes, Array("<".utf8), Array(">".utf8)) {
        cursor, pieces, open, close in
        cursor.put(open)
        cursor.put(ExactDecimal(significand: 5, scale: 2), mark: UInt8(ascii: ","))
        cursor.putPiece(7, of: template, from: pieces)
        cursor.put(close)
        cursor.put(Array("!".utf8))
      }
      let (start, count) = template.piece(7)
      #expect(Array(buffer.bytes) == Array("<0,05".utf8) + Array(template.bytes[start..<start + count]) + Array(">!".utf8))
    }

    @Test func aCursorCountsItsRoom() {
      let text = ExactBytes("abc", padding: ByteCursor.wordCopyLimit)
      var buffer = ByteBuffer(capacity: 64)
      buffer.append(maximum: 48) { cursor in
        #expect(cursor.room == 48)
        cursor.putWord(0x6B6F, count: 2)
        #expect(cursor.room == 46)
        cursor.putShort(text.view)
        #expect(cursor.room == 43)
      }
      #expect(Array(buffer.bytes) == Array("okabc".utf8))
    }
  }
}
