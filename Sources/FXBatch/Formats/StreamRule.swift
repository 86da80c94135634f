/// What the bytes of a stream in a text format must be while the stream is copied to be read twice
/// (``FileFormat/streamRule(head:options:inputPath:)``), and how a refusal is worded.
struct StreamRule {
  /// What the bytes are checked for.
  enum Bytes: Equatable {
    /// Text in UTF-8: no bytes that are not UTF-8; with `refusesControls`, no control byte but tab, line feed and
    /// carriage return.
    case utf8(refusesControls: Bool)
    /// Text in a single-byte encoding: no control byte but tab, line feed and carriage return.
    case controls
    /// Text in UTF-16: no unpaired surrogate; with `refusesControls`, no control character but tab, line feed and
    /// carriage return.
    case utf16(bigEndian: Bool, refusesControls: Bool)
    /// A zip package (a format of the package kind), or a Compound File (which the package's reader refuses
    /// for what it is): its first bytes say so.
    case package
    /// Any bytes: only the size and line limits.
    case anyBytes
  }

  /// A format whose reader reads on past a bad record (JSON Lines) is held to a rule of its own: a line that is
  /// a record starts within the first ``RecordLimits/maxRecordBytes`` (a stream without one is not the format).
  struct RecordLine {
    /// Whether a line (without its line end) is a record.
    let isRecord: (_ line: [UInt8], _ limits: RecordLimits) -> Bool
    /// What a record is, for the refusal: `a JSON object`.
    let what: String
  }

  var bytes: Bytes
  /// See ``RecordLine``; `nil` for the other formats.
  var recordLine: RecordLine? = nil
  /// The refusal of a byte that starts no UTF-8 character at a line and column, when the format words it as its
  /// reader does (CSV); `nil`: the check's own words.
  var notUTF8: ((_ line: Int, _ column: Int, _ byte: UInt8) -> (message: String, hint: String?))? = nil
  /// How a refusal says the format's text is UTF-8: `is UTF-8`, or XML's `without an encoding declaration is UTF-8`.
  var utf8Wording = "is UTF-8"
  /// The hint of a refusal of bytes the format's text cannot hold; `nil`: give `--format` if the stream is not
  /// the format.
  var hint: String? = nil
}
