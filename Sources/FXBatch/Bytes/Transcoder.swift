#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converts a file's text from one encoding to another with glibc's iconv (`iconv_open(3)`, `iconv(3)`), as a
/// stream: memory holds two buffers, never the file.
///
/// fxbatch uses it both ways round for a CSV file not in UTF-8 (``TextEncoding``): the file into a UTF-8 copy
/// that both passes read, and the UTF-8 annotated copy back into the file's encoding. Record bytes survive the
/// round trip exactly: each of Windows-1252's 251 defined bytes, each byte of ISO-8859-1 and ISO-8859-15, and
/// each well-formed UTF-16 character decodes to one Unicode character that encodes back to the same bytes (the
/// tests check every byte). A byte that is not a character of the encoding (0x81, 0x8D, 0x8F, 0x90, 0x9D in
/// Windows-1252; an unpaired surrogate in UTF-16) stops the conversion with an error, never a replacement
/// character, so no record is ever changed.
enum Transcoder {
  /// Why a conversion stopped.
  struct Failure: Error, Equatable {
    enum Reason: Equatable {
      /// These bytes (one code unit) start no character of the source encoding.
      case invalid([UInt8])
      /// The file ends inside a character (e.g. an odd number of bytes of UTF-16).
      case truncated
      /// iconv cannot convert between the two encodings here (glibc's conversion modules are missing).
      case unsupported
      /// Reading the input failed: the system's message.
      case unreadable(String)
      /// Writing the output failed.
      case unwritable(OutputError)
    }

    let reason: Reason
    /// The input offset of the bytes that stopped it.
    let offset: Int
    /// Its 1-based line in the converted text (a line ends at LF, CR LF or CR, as CSV's do).
    let line: Int
    /// Its 1-based column: the characters before it on its line, plus 1.
    let column: Int
  }

  /// Converts everything readable from `input` and writes it to `sink` (then flushes it).
  ///
  /// - Parameters:
  ///   - source: the input's encoding (``TextEncoding/utf16`` is not a choice: the byte order must be known).
  ///   - target: the output's encoding.
  ///   - input: an open descriptor, read to its end.
  ///   - sink: where the converted text goes.
  ///   - substitute: for a character of the (UTF-8) input that `target` cannot hold, the ASCII text written
  ///     instead; `nil` makes such a character a failure (``Failure/Reason/invalid(_:)``).
  /// - Throws: ``Failure``; what was written before it is left in `sink`.
  static func convert(
    from source: TextEncoding, to target: TextEncoding, input: Int32, into sink: ByteSink,
    substitute: ((Unicode.Scalar) -> String)? = nil
  ) throws(Failure) {
    var position = TextPosition()
    let converter = iconv_open(target.iconvName, source.iconvName)
    guard let converter, converter != iconv_t(bitPattern: -1) else {
      throw Failure(reason: .unsupported, offset: 0, line: 1, column: 1)
    }
    defer { iconv_close(converter) }
    let inputCapacity = 1 << 16
    let outputCapacity = 1 << 18
    let inputBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: inputCapacity)
    let outputBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: outputCapacity)
    defer {
      inputBuffer.deallocate()
      outputBuffer.deallocate()
    }
    /// Input bytes at the start of `inputBuffer` not converted yet, and the input offset of `inputBuffer[0]`.
    var pending = 0
    var bufferOffset = 0
    var atEnd = false
    func fail(_ reason: Failure.Reason, at offset: Int) -> Failure {
      Failure(reason: reason, offset: offset, line: position.line, column: position.column)
    }
    /// Writes `outputBuffer[0..<count]`, keeping track of the position (in UTF-8 text only).
    func emit(_ count: Int) throws(Failure) {
      let bytes = UnsafeBufferPointer(start: outputBuffer, count: count)
      if target == .utf8 { position.advance(over: bytes) }
      do { try sink.write(bytes) } catch { throw fail(.unwritable(error), at: bufferOffset) }
    }
    /// Converts `count` bytes at `start` into the output (the substitute of a character `target` lacks).
    func convertWhole(_ start: UnsafeMutablePointer<UInt8>, count: Int) throws(Failure) {
      var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(start).assumingMemoryBound(to: CChar.self)
      var inLeft = count
      var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outputBuffer).assumingMemoryBound(
        to: CChar.self)
      var outLeft = outputCapacity
      let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
      guard result != -1, inLeft == 0 else { throw fail(.unsupported, at: bufferOffset) }
      try emit(outputCapacity - outLeft)
    }
    while true {
      if !atEnd {
        let got = read(input, inputBuffer + pending, inputCapacity - pending)
        if got < 0 {
          if errno == EINTR { continue }
          throw fail(.unreadable(String(cString: strerror(errno))), at: bufferOffset + pending)
        }
        if got == 0 { atEnd = true }
        pending += got
      }
      if pending == 0 { break }
      var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inputBuffer).assumingMemoryBound(
        to: CChar.self)
      var inLeft = pending
      conversion: while inLeft > 0 {
        var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outputBuffer).assumingMemoryBound(
          to: CChar.self)
        var outLeft = outputCapacity
        let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
        let failure = result == -1 ? errno : 0
        try emit(outputCapacity - outLeft)
        let at = pending - inLeft
        switch failure {
        case 0, E2BIG: continue
        case EINVAL:  // a character continues past the bytes read
          guard atEnd else { break conversion }
          throw fail(.truncated, at: bufferOffset + at)
        case EILSEQ:
          let start = inputBuffer + at
          if source == .utf8, let substitute,
            let (scalar, length) = Self.scalar(at: UnsafeBufferPointer(start: start, count: inLeft))
          {
            var text = Array(substitute(scalar).utf8)
            try text.withUnsafeMutableBufferPointer { (buffer) throws(Failure) in
              if let base = buffer.baseAddress { try convertWhole(base, count: buffer.count) }
            }
            inPointer = inPointer.map { $0 + length }
            inLeft -= length
            continue
          }
          let shown = Array(UnsafeBufferPointer(start: start, count: min(source.codeUnitSize, inLeft)))
          throw fail(.invalid(shown), at: bufferOffset + at)
        default:
          throw fail(.unsupported, at: bufferOffset + at)
        }
      }
      let converted = pending - inLeft
      if inLeft > 0 { (inputBuffer).update(from: inputBuffer + converted, count: inLeft) }
      bufferOffset += converted
      pending = inLeft
      if atEnd, pending == 0 { break }
    }
    do { try sink.flush() } catch { throw fail(.unwritable(error), at: bufferOffset) }
  }

  /// Converts a whole file into an open sink (``convert(from:to:input:into:substitute:)`` on the file's bytes).
  static func convert(
    file path: String, from source: TextEncoding, to target: TextEncoding, into sink: ByteSink,
    substitute: ((Unicode.Scalar) -> String)? = nil
  ) throws(Failure) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw Failure(reason: .unreadable(String(cString: strerror(errno))), offset: 0, line: 1, column: 1)
    }
    defer { close(descriptor) }
    try convert(from: source, to: target, input: descriptor, into: sink, substitute: substitute)
  }

  /// The Unicode character whose UTF-8 bytes start `bytes`, and their count; `nil` when they are not UTF-8.
  static func scalar(at bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int)? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    guard case .valid(let encoded) = parser.parseScalar(from: &iterator) else { return nil }
    return (Unicode.UTF8.decode(encoded), encoded.count)
  }

  /// Where in UTF-8 text the bytes so far end: lines and characters, as CSV counts lines.
  struct TextPosition {
    var line = 1
    var column = 1
    /// The last byte seen was a CR (a CR LF pair is one line end).
    private var afterReturn = false

    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
      for byte in bytes {
        if byte == 10 {
          if !afterReturn { line += 1 }
          column = 1
        } else if byte == 13 {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
        afterReturn = byte == 13
      }
    }
  }
}
