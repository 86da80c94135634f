/// A Compound File Binary (OLE2) file, recognised by its first eight bytes: the container of legacy `.xls`
/// workbooks, and also of password-protected `.xlsx` workbooks, which Excel (and LibreOffice, msoffcrypto-tool)
/// store as an `EncryptedPackage` stream beside an `EncryptionInfo` stream ([MS-OFFCRYPTO] 2.3.4.4, [MS-CFB]).
enum CompoundFile {
  /// `D0 CF 11 E0 A1 B1 1A E1`, [MS-CFB] 2.2.
  static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
  /// `EncryptedPackage` in UTF-16LE, as a directory entry names it.
  private static let encryptedPackageName = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
  /// The most directory sectors followed: a workbook's directory has a handful of entries (4 to a 512-byte
  /// sector), and a loop in a hostile file's sector chain must end.
  private static let maximumDirectorySectors = 256
  private static let endOfChain: UInt32 = 0xFFFF_FFFE

  /// Whether the file's directory has an `EncryptedPackage` stream: an encrypted OOXML workbook, not an `.xls`.
  ///
  /// Follows the directory's sector chain through the file allocation table sectors the header lists (the first
  /// 109, which cover 6.8 MB of 512-byte sectors; a directory beyond them is not followed and reads as not
  /// encrypted, which refuses the file as a legacy workbook instead, still with nothing converted).
  /// - Parameter descriptor: the open file, read with `pread(2)`.
  static func isEncryptedPackage(descriptor: Int32) -> Bool {
    guard let header = read(descriptor, offset: 0, count: 512) else { return false }
    let sectorShift = Int(header[30]) | Int(header[31]) << 8
    guard sectorShift == 9 || sectorShift == 12 else { return false }
    let sectorSize = 1 << sectorShift
    var sector = word(header, at: 48)
    var visited = 0
    while sector < endOfChain, visited < maximumDirectorySectors {
      visited += 1
      guard let directory = read(descriptor, offset: (Int(sector) + 1) << sectorShift, count: sectorSize) else {
        return false
      }
      for entry in stride(from: 0, to: sectorSize, by: 128) {
        let nameLength = Int(directory[entry + 64]) | Int(directory[entry + 65]) << 8
        // The length counts the terminating NUL (2 bytes).
        if nameLength == encryptedPackageName.count + 2,
          directory[entry..<entry + encryptedPackageName.count].elementsEqual(encryptedPackageName)
        {
          return true
        }
      }
      guard let next = nextSector(after: sector, header: header, descriptor: descriptor, sectorShift: sectorShift)
      else { return false }
      sector = next
    }
    return false
  }

  /// The sector after `sector` in its chain, read from the file allocation table.
  private static func nextSector(after sector: UInt32, header: [UInt8], descriptor: Int32, sectorShift: Int) -> UInt32? {
    let perSector = (1 << sectorShift) / 4
    let tableIndex = Int(sector) / perSector
    guard tableIndex < 109 else { return nil }
    let tableSector = word(header, at: 76 + 4 * tableIndex)
    guard tableSector < endOfChain else { return nil }
    let offset = ((Int(tableSector) + 1) << sectorShift) + 4 * (Int(sector) % perSector)
    return read(descriptor, offset: offset, count: 4).map { word($0, at: 0) }
  }

  private static func read(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = FileBytes.read(from: descriptor, into: &bytes, at: filled, fileOffset: offset + filled)
      guard got > 0 else { return nil }
      filled += got
    }
    return bytes
  }

  private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }
}
