import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ScratchList")
  struct ScratchListTests {
    @Test func appendsUpToItsCapacity() {
      var list = ScratchList<Range<Int>>.allocate(capacity: 3)
      defer { list.deallocate() }
      #expect(list.isEmpty)
      list.append(0..<3)
      list.append(4..<4)
      list.append(5..<9)
      #expect(list.count == 3)
      #expect(list.capacity == 3)
      #expect(list[0] == 0..<3)
      #expect(list[2] == 5..<9)
      #expect(Array(list) == [0..<3, 4..<4, 5..<9])
      #expect(list.last == 5..<9)
    }

    @Test func removeAllKeepsTheMemory() {
      var list = ScratchList<Int>.allocate(capacity: 2)
      defer { list.deallocate() }
      list.append(1)
      list.append(2)
      list.removeAll()
      #expect(list.isEmpty)
      #expect(list.capacity == 2)
      list.append(3)
      #expect(Array(list) == [3])
    }

    @Test func appendGrowingDoublesWhenFull() {
      var list = ScratchList<Range<Int>>.allocate(capacity: 1)
      defer { list.deallocate() }
      var growths: [Int] = []
      for index in 0..<1000 where list.appendGrowing(index..<index + 1) { growths.append(index) }
      // It grows at 1, 2, 4, … 512 values: before the 2nd, 3rd, 5th, … 513th append.
      #expect(growths == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
      #expect(list.capacity == 1024)
      #expect(list.count == 1000)
      #expect(list.allSatisfy { $0.count == 1 })
      #expect(list.map(\.lowerBound) == Array(0..<1000))
    }

    @Test func copiesShareTheMemory() {
      var list = ScratchList<Int>.allocate(capacity: 4)
      defer { list.deallocate() }
      list.append(7)
      let copy = list
      list.removeAll()
      list.append(8)
      // A copy keeps its count and sees what was written since (a record is valid until the next one).
      #expect(Array(copy) == [8])
    }

    @Test func slicesAndIndices() {
      var list = ScratchList<Int>.allocate(capacity: 8)
      defer { list.deallocate() }
      for value in [10, 20, 30, 40] { list.append(value) }
      #expect(list[..<2].map { $0 + 1 } == [11, 21])
      #expect(Array(list[2...]) == [30, 40])
      #expect(Array(list.prefix(3)) == [10, 20, 30])
      #expect(list.indices == 0..<4)
    }
  }
}
