import Testing

@testable import FXBatch

@Suite("UInt64.dividingFullWidthOnce")
struct DivisionOnceTests {
  /// Quotient and remainder as the standard library's two-call division gives them, on seeded random operands
  /// and the edges (a divisor of 1, a high word one below the divisor, a low word of all ones).
  @Test func sameAsTheStandardLibrary() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    var cases: [(UInt64, UInt64, UInt64)] = [(1, 0, 0), (1, 0, .max), (.max, .max - 1, .max), (10, 9, .max), (3, 2, 1)]
    for _ in 0..<20_000 {
      let divisor = max(1, next() >> (next() % 64))
      cases.append((divisor, next() % divisor, next()))
    }
    for (divisor, high, low) in cases {
      let once = divisor.dividingFullWidthOnce((high, low))
      let standard = divisor.dividingFullWidth((high, low))
      #expect(once.quotient == standard.quotient && once.remainder == standard.remainder)
    }
  }
}

/// ``FieldKeyDecoder/evidence(_:)`` reads a cell in one pass; it must say what the two-step rule says (find the
/// one mark, then ``FieldKeyDecoder/plainAmount(_:mark:)`` with it), on every short cell over a small alphabet.
@Suite("FieldKeyDecoder.evidence")
struct CSVEvidenceTests {
  static func twoStep(_ bytes: UnsafeBufferPointer<UInt8>) -> DecimalMarkInference.Evidence? {
    var markIndex = -1
    var mark: UInt8 = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
      guard markIndex < 0 else { return nil }
      markIndex = index
      mark = byte
    }
    if markIndex < 0 { return FieldKeyDecoder.plainAmount(ByteView(bytes), mark: nil) == nil ? nil : .neutral }
    guard bytes.count - markIndex - 1 != 3, FieldKeyDecoder.plainAmount(ByteView(bytes), mark: mark) != nil else { return nil }
    return mark == UInt8(ascii: ".") ? .point : .comma
  }

  @Test func sameAsTheTwoStepRule() {
    let alphabet = Array("0 1.,-+a".utf8)
    var checked = 0
    func visit(_ cell: [UInt8]) {
      cell.withUnsafeBufferPointer { bytes in
        #expect(FieldKeyDecoder.evidence(ByteView(bytes)) == Self.twoStep(bytes), "\(String(decoding: cell, as: UTF8.self))")
      }
      checked += 1
      guard cell.count < 6 else { return }
      for byte in alphabet { visit(cell + [byte]) }
    }
    visit([])
    for long in ["1234567890123456789", "123456789012345678", "1.234", "12.345678", "-0.5", "+,5", "5,"] {
      visit(Array(long.utf8))
    }
    #expect(checked > 290_000)
  }
}
