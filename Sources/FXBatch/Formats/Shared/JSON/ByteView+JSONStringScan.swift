extension ByteView {
  /// The first index from `start` where a JSON string's plain run may end, eight bytes at a time: the first quote,
  /// backslash, control byte (below 0x20) or byte of 0x80 or above within the whole words before `end`, else
  /// the index where the next whole word would pass `end` (the caller goes on byte by byte from there).
  ///
  /// The classic "has a zero byte" test on the word xor'ed with `"` and with `\`, "has a byte below 0x20", and
  /// the top bit of each byte; in a little-endian word the lowest byte it flags is exactly the first such byte (a
  /// borrow only runs upwards).
  @inline(__always)
  func jsonStringStop(from start: Int, before end: Int) -> Int {
    var at = start
    let ones: UInt64 = 0x0101_0101_0101_0101
    while at + 8 <= end {
      let word = word(at: at)
      let quote = word ^ 0x2222_2222_2222_2222
      let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
      let found =
        (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- 0x2020_2020_2020_2020) & ~word)
          | word) & 0x8080_8080_8080_8080
      if found != 0 { return at + found.trailingZeroBitCount >> 3 }
      at += 8
    }
    return at
  }
}
