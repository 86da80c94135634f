/// A zip file's entries read straight from its bytes (APPNOTE.TXT 4.3), independently of libzip: what the tests
/// compare a written package with. Only what the fixtures use: no Zip64, no archive comment longer than the
/// search, one disk.
struct RawZip {
  /// One central-directory record and the entry's stored data.
  struct Entry: Equatable {
    var name: String
    var method: UInt16
    var flags: UInt16
    var dosTime: UInt16
    var dosDate: UInt16
    var crc: UInt32
    var compressedSize: UInt32
    var size: UInt32
    var externalAttributes: UInt32
    var extraField: [UInt8]
    var comment: [UInt8]
    /// The compressed bytes, as stored after the local header.
    var data: [UInt8]
  }

  let entries: [Entry]

  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  init(_ bytes: [UInt8]) throws {
    func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    // The end of central directory record: signature 50 4B 05 06, searched backwards.
    var end = bytes.count - 22
    while end >= 0, u32(end) != 0x0605_4B50 { end -= 1 }
    guard end >= 0 else { throw Malformed(description: "no end of central directory record") }
    let count = Int(u16(end + 10))
    var at = Int(u32(end + 16))
    var entries: [Entry] = []
    for _ in 0..<count {
      guard u32(at) == 0x0201_4B50 else { throw Malformed(description: "no central directory record at \(at)") }
      let nameLength = Int(u16(at + 28))
      let extraLength = Int(u16(at + 30))
      let commentLength = Int(u16(at + 32))
      let localOffset = Int(u32(at + 42))
      let compressedSize = u32(at + 20)
      guard u32(localOffset) == 0x0403_4B50 else { throw Malformed(description: "no local header at \(localOffset)") }
      let dataStart = localOffset + 30 + Int(u16(localOffset + 26)) + Int(u16(localOffset + 28))
      let nameStart = at + 46
      entries.append(
        Entry(
          name: String(decoding: bytes[nameStart..<nameStart + nameLength], as: UTF8.self), method: u16(at + 10),
          flags: u16(at + 8), dosTime: u16(at + 12), dosDate: u16(at + 14), crc: u32(at + 16),
          compressedSize: compressedSize, size: u32(at + 24), externalAttributes: u32(at + 38),
          extraField: Array(bytes[nameStart + nameLength..<nameStart + nameLength + extraLength]),
          comment: Array(bytes[nameStart + nameLength + extraLength..<nameStart + nameLength + extraLength + commentLength]),
          data: Array(bytes[dataStart..<dataStart + Int(compressedSize)])))
      at = nameStart + nameLength + extraLength + commentLength
    }
    self.entries = entries
  }

  /// The entry with this name.
  func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }
}

/// CRC-32 (IEEE 802.3, the zip checksum), bit by bit: slow and obviously right.
func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
