import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("FieldShapeCache")
  struct FieldShapeCacheTests {
    /// The names of a record, each in memory of exactly its size.
    static func shape(_ cache: inout FieldShapeCache<String>, _ names: [String], resolved: inout [[String]]) -> (
      index: Int, value: String
    )? {
      let memories = names.map { ExactBytes($0) }
      return cache.shape(count: names.count, name: { memories[$0].view }) { decoded in
        resolved.append(decoded)
        return decoded.joined(separator: "|")
      }
    }

    @Test func aShapeIsResolvedOnce() throws {
      var cache = FieldShapeCache<String>()
      var resolved: [[String]] = []
      let first = try #require(Self.shape(&cache, ["id", "amount", "from", "to"], resolved: &resolved))
      let again = try #require(Self.shape(&cache, ["id", "amount", "from", "to"], resolved: &resolved))
      #expect(first.index == again.index)
      #expect(again.value == "id|amount|from|to")
      #expect(resolved == [["id", "amount", "from", "to"]])
    }

    @Test func orderCountAndSplitMakeOtherShapes() throws {
      var cache = FieldShapeCache<String>()
      var resolved: [[String]] = []
      let shapes = [["ab", "c"], ["a", "bc"], ["c", "ab"], ["ab"], ["ab", "c", ""], [], ["é", "c"]]
      var indices: [Int] = []
      for names in shapes { indices.append(try #require(Self.shape(&cache, names, resolved: &resolved)).index) }
      #expect(indices == Array(0..<shapes.count))
      #expect(resolved == shapes)
      // Each is found again, not resolved again, in any order (the last one first, then the hash table).
      for (index, names) in shapes.enumerated().reversed() {
        #expect(try #require(Self.shape(&cache, names, resolved: &resolved)).index == index)
      }
      #expect(resolved.count == shapes.count)
    }

    @Test func manyShapesAreAllFoundAfterTheTableGrows() throws {
      var cache = FieldShapeCache<String>()
      var resolved: [[String]] = []
      for round in 0..<300 {
        #expect(try #require(Self.shape(&cache, ["amount", "c\(round)"], resolved: &resolved)).index == round)
      }
      for round in stride(from: 299, through: 0, by: -7) {
        let found = try #require(Self.shape(&cache, ["amount", "c\(round)"], resolved: &resolved))
        #expect(found.index == round)
        #expect(found.value == "amount|c\(round)")
      }
      #expect(resolved.count == 300)
    }

    @Test func newShapesPastTheLimitAreNotKept() throws {
      var cache = FieldShapeCache<String>()
      var resolved: [[String]] = []
      let limit = FieldShapeCache<String>.capacityLimit
      for round in 0..<limit { _ = Self.shape(&cache, ["s\(round)"], resolved: &resolved) }
      #expect(Self.shape(&cache, ["new"], resolved: &resolved) == nil)
      #expect(try #require(Self.shape(&cache, ["s0"], resolved: &resolved)).index == 0)
      #expect(try #require(Self.shape(&cache, ["s\(limit - 1)"], resolved: &resolved)).index == limit - 1)
      #expect(resolved.count == limit)
    }
  }

  @Suite("UnalignedWord")
  struct UnalignedWordTests {
    @Test(arguments: 0...8)
    func loadsAndStoresAtAnyOffset(offset: Int) {
      let bytes: [UInt8] = (1...16).map { UInt8($0) }
      // 8 bytes from `offset`, the last possible one ending at the allocation's end.
      let memory = ExactBytes(bytes)
      let loaded = UInt64(littleEndian: UnalignedWord.load(UnsafeRawPointer(memory.pointer + offset)))
      #expect(loaded == BytesTests.littleEndian(bytes[offset..<offset + 8]))
      UnalignedWord.store(UInt64(0xA1A2_A3A4_A5A6_A7A8).littleEndian, to: UnsafeMutableRawPointer(memory.pointer + offset))
      var expected = bytes
      expected.replaceSubrange(offset..<offset + 8, with: [0xA8, 0xA7, 0xA6, 0xA5, 0xA4, 0xA3, 0xA2, 0xA1])
      #expect(Array(memory.view) == expected)
    }
  }
}
