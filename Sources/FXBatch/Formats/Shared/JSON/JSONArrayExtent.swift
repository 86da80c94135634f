/// Where a JSON document's records array lies, as pass 1's byte-level scan (``JSONArrayReader``) found it: its
/// inside, and where the parts of pass 2 start.
struct JSONArrayExtent: Sendable, Equatable {
  /// A place in the file.
  struct Position: Sendable, Equatable, PartBoundary {
    /// The 0-based file offset.
    var offset: Int
    /// The 1-based line and byte column (as ``JSONByteStream`` counts them).
    var line: Int
    var column: Int
  }

  /// After the array's `[`.
  let start: Position
  /// After its `]`.
  let end: Position
  /// The first bytes of the records where parts 1, 2, … of pass 2 start, in order (empty: one part).
  let partStarts: [Position]
}
