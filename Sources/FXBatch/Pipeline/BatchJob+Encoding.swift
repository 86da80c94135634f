import Foundation

/// CSV files not in UTF-8 (`--encoding`, or a UTF-16 byte order mark): each is converted once to a private UTF-8
/// copy in `$TMPDIR` (like standard input is spooled), both passes read the copy, so every reader and fast path
/// stays UTF-8 only; the annotated copy is written in UTF-8 to a private temporary file and converted back into
/// the file's encoding, into its destination (atomically) or to standard output. The copies are removed at the
/// end of the run (and by an interrupt).
///
/// What the round trip does to the bytes (``Transcoder``, glibc's iconv):
/// - Record bytes are kept exactly: every byte of ISO-8859-1 and ISO-8859-15, every defined byte of
///   Windows-1252 and every well-formed UTF-16 character decodes to one Unicode character that encodes back to
///   the same bytes, and the byte order mark is kept as it was.
/// - A byte the encoding does not define (0x81, 0x8D, 0x8F, 0x90, 0x9D in Windows-1252) or a malformed UTF-16
///   character is a file error at its line and column; nothing is converted, nothing is replaced.
/// - The annotation fxbatch adds is ASCII except where it quotes text: a record's own text (which encodes back),
///   a rates file's name or a rate service's words, and the `…` that shortens a long quoted value. A character
///   of these the encoding cannot hold (`…` in ISO-8859-1, `€` in a file name) is written as ASCII: `…` as `...`,
///   any other as `\u{20ac}` (as messages write invisible characters).
extension BatchJob {
  /// The encoding a CSV file is read in (``TextEncoding/resolve(declared:byteOrderMark:)``).
  ///
  /// - Throws: a ``FileError`` when `--encoding` contradicts the file's byte order mark, or is `utf-16` on a file
  ///   without one.
  static func encoding(of readPath: String, displayPath: String, declared: TextEncoding?) throws(FileError)
    -> TextEncoding
  {
    let start = FileBytes.prefix(of: readPath, count: 3)
    switch TextEncoding.resolve(declared: declared, byteOrderMark: TextEncoding.byteOrderMark(at: start)) {
    case .success(let encoding): return encoding
    case .failure(let conflict): throw FileError(path: displayPath, message: conflict.description, hint: conflict.hint)
    }
  }

  /// Converts a file to a private UTF-8 copy in `$TMPDIR`, named uniquely (jobs may run side by side in one
  /// process).
  ///
  /// - Returns: the copy's path (a pending file until the caller removes it).
  /// - Throws: a ``FileError`` at the first byte that is not a character of `encoding`.
  static func utf8Copy(of readPath: String, displayPath: String, encoding: TextEncoding, firstLine: Int = 1)
    throws(FileError) -> String
  {
    // Named as a spool (a number no stream of the run takes), so that a later run removes it if this one is killed.
    let name = StaleTemporaryFiles.spoolName(pid: getpid(), number: Int.random(in: 1_000_000...999_999_999_999))
    let path = PathText.appending(name, to: NSTemporaryDirectory())
    do {
      let copy = try AtomicFile(path: path, mode: 0o600)
      do {
        try Transcoder.convert(file: readPath, from: encoding, to: .utf8, into: copy.sink)
      } catch {
        copy.discard()
        throw fileError(error, path: displayPath, encoding: encoding, firstLine: firstLine)
      }
      try copy.commit()
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: displayPath, message: "cannot make a UTF-8 copy of the file: \(error)")
    }
    PendingFiles.add(path)
    return path
  }

  /// A failure to read a file in its encoding, located in the file (whose first line is `firstLine`).
  static func fileError(_ failure: Transcoder.Failure, path: String, encoding: TextEncoding, firstLine: Int = 1)
    -> FileError
  {
    let name = encoding.rawValue
    let line = failure.line + firstLine - 1
    let place = "line \(line), column \(failure.column)"
    let message: String
    var hint: String? = nil
    switch failure.reason {
    case .invalid(let bytes):
      let shown = bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
      message =
        "the \(bytes.count == 1 ? "byte" : "bytes") \(shown) at \(place) \(bytes.count == 1 ? "is" : "are") not a "
        + "character in \(name); nothing is converted"
      hint =
        encoding == .windows1252
        ? "Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined: check which encoding wrote the file"
        : "check which encoding wrote the file"
    case .truncated: message = "the file ends inside a character of \(name) (\(place)); nothing is converted"
    case .unsupported:
      message = "this system's iconv cannot convert \(name) (glibc's conversion modules, gconv, are missing)"
    case .unreadable(let reason): message = "cannot read the file: \(reason)"
    case .unwritable(let error): message = "cannot write the UTF-8 copy of the file: \(error)"
    }
    return FileError(path: path, line: line, column: failure.column, message: message, hint: hint)
  }

  /// Removes a temporary copy the run made.
  static func removeTemporary(_ path: String) {
    unlink(path)
    PendingFiles.remove(path)
  }

  /// Removes the temporary copies the files of a run were read from (``FileScan/readPathIsTemporary``).
  static func removeTemporaryCopies(of scans: [FileScan?]) {
    for case let scan? in scans where scan.readPathIsTemporary { removeTemporary(scan.readPath) }
  }

  /// The characters of the annotation an encoding cannot hold, in ASCII: `…` as `...`, any other as `\u{…}`.
  static func asciiSubstitute(_ scalar: Unicode.Scalar) -> String {
    scalar == "\u{2026}" ? "..." : "\\u{\(String(scalar.value, radix: 16))}"
  }

  /// Pass 2 over one file, its annotated copy written in the file's encoding (``FileScan/encoding``): a file not
  /// in UTF-8 is converted into a private UTF-8 file first, which is then converted into the destination.
  func convertInItsEncoding(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError)
    -> (RunReport.Counts, Int, ReconciliationLedger, FileScan)
  {
    guard let encoding = scan.encoding, !encoding.isUTF8 else {
      return try convert(scan, quotes: quotes, standardOutput: standardOutput)
    }
    let utf8Output = scan.readPath + ".annotated"
    let created = open(utf8Output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard created >= 0 else {
      throw FileError(
        path: scan.displayPath, message: "cannot create \(utf8Output): \(String(cString: strerror(errno)))")
    }
    close(created)
    PendingFiles.add(utf8Output)
    defer { Self.removeTemporary(utf8Output) }
    var utf8Scan = scan
    utf8Scan.outputPath = utf8Output
    var done = try convert(utf8Scan, quotes: quotes, standardOutput: standardOutput)
    done.3.outputPath = scan.outputPath
    do {
      if let outputPath = scan.outputPath {
        let file = try AtomicFile(path: outputPath, permissionsOf: scan.displayPath == "-" ? nil : scan.displayPath)
        do {
          try Transcoder.convert(
            file: utf8Output, from: .utf8, to: encoding, into: file.sink, substitute: Self.asciiSubstitute)
        } catch {
          file.discard()
          throw error
        }
        try file.commit()
      } else {
        try Transcoder.convert(
          file: utf8Output, from: .utf8, to: encoding, into: ByteSink(descriptor: standardOutput),
          substitute: Self.asciiSubstitute)
      }
    } catch {
      throw FileError(
        path: scan.displayPath, message: "cannot write the annotated copy in \(encoding.rawValue): \(error)")
    }
    return done
  }
}
