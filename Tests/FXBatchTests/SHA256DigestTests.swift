import Testing

@testable import FXBatch

/// The lock file's digest (``SHA256Digest``) against digests computed by Python's `hashlib`, whole and fed in
/// pieces of every size (the lock is now hashed a block at a time as it is read and written).
@Suite("SHA256Digest: the lock file's digest")
struct SHA256DigestTests {
  /// `hashlib.sha256(bytes((i * 7 + 3) % 256 for i in range(n))).hexdigest()`.
  static let known: [(count: Int, digest: String)] = [
    (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (3, "6ab0dba1f4f1dfbb37b4f9eeb092c09fca4900ad32bdcd147d8dde35d6c87c35"),
    (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
    (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
    (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
    (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
    (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
    (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
    (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
    (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
    (100_000, "d96bab6a55ee326ba206dd4a85a6e95e14360d7fabbf448f03e689c24382b7d0"),
  ]

  private static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(($0 * 7 + 3) % 256) } }

  @Test func wholeInputsMatchHashlib() {
    for (count, digest) in Self.known {
      #expect(SHA256Digest.hex(of: Self.bytes(count)) == digest, "\(count) bytes")
    }
  }

  @Test(arguments: [1, 7, 63, 64, 65, 100, 4096])
  func piecesMatchTheWhole(pieceSize: Int) {
    for (count, digest) in Self.known where count <= 1000 || pieceSize >= 63 {
      let input = Self.bytes(count)
      var hasher = SHA256Digest.Hasher()
      var start = 0
      var size = pieceSize
      while start < input.count {
        let end = min(input.count, start + size)
        hasher.update(input[start..<end])
        start = end
        size = size % 97 + pieceSize  // pieces of varying sizes around the given one
      }
      #expect(hasher.finalize() == digest, "\(count) bytes in pieces of about \(pieceSize)")
      var byByte = SHA256Digest.Hasher()
      if count <= 1000 {
        for byte in input { byByte.update(byte: byte) }
        #expect(byByte.finalize() == digest, "\(count) bytes one at a time")
      }
    }
  }
}
