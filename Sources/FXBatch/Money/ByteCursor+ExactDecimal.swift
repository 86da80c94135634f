// Writing a decimal is declared with the decimal: Bytes/ sits below Money/ (LayeringTests).

extension ByteCursor {
  /// Writes a decimal's text with a `.` mark (``ExactDecimal/write(to:mark:)``); the reservation must have room
  /// for its longest text (``ExactDecimal/maximumTextLength``).
  @inline(__always)
  mutating func put(_ value: ExactDecimal) {
    put(maximum: ExactDecimal.maximumTextLength) { value.write(to: $0) }
  }

  /// ``put(_:)-(ExactDecimal)`` with `mark` as the decimal mark.
  @inline(__always)
  mutating func put(_ value: ExactDecimal, mark: UInt8) {
    put(maximum: ExactDecimal.maximumTextLength) { value.write(to: $0, mark: mark) }
  }
}
