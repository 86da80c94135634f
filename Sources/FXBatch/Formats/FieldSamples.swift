/// The first non-empty values of a file's fields, gathered over its first records: the evidence of
/// ``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)`` for a field the run does not
/// read (dates in a file without a date field, currency codes under `--from`/`--to`).
///
/// The records are read again from the start, by the format's general reader, apart from pass 1 (so a byte-level
/// pass 1 and the general one judge on the same values), and only while the evidence is incomplete: at least the
/// first ``minimumRecords`` records (a JSON member or an XML field missing from the first records), then until every
/// field seen has shown ``valuesPerField`` non-empty values, and never more than ``maximumRecords`` records. Most
/// files stop after ``minimumRecords``; a field empty in all of the first ``maximumRecords`` records is not judged.
struct FieldSamples: Sendable {
  /// Non-empty values kept per field.
  static let valuesPerField = 5
  /// Records always looked at (when the file has them).
  static let minimumRecords = 100
  /// Records never looked past.
  static let maximumRecords = 10_000

  /// The fields not gathered (those the run reads: the amount, currency and date fields).
  let skipped: Set<String>
  /// The fields seen, in order of first appearance (an XML attribute as `@name`).
  private(set) var names: [String] = []
  /// Each field's first non-empty values (trimmed, at most ``valuesPerField``), in the order of ``names``.
  private(set) var values: [[String]] = []
  private var positions: [String: Int] = [:]
  /// How many fields have fewer than ``valuesPerField`` values.
  private var unfinished = 0
  /// How many records were added.
  private(set) var records = 0

  init(skipping skipped: Set<String>) { self.skipped = skipped }

  /// Whether the evidence is complete: no more records need to be read.
  var isComplete: Bool {
    records >= Self.maximumRecords || (records >= Self.minimumRecords && unfinished == 0)
  }

  /// Adds a record's fields.
  ///
  /// - Parameter fields: the record's field names and texts; `nil` for a value that is not text (a JSON number,
  ///   `null`, an object), empty or blank texts count as no value.
  mutating func add(_ fields: some Sequence<(name: String, value: String?)>) {
    add(counted: fields.lazy.map { ($0.name, $0.value, 1) })
  }

  /// Adds a record's fields, each field's value standing for `times` fields of that name and value in a row (the
  /// columns of a spreadsheet cell repeated under header cells of one name): as many as `add(_:)` would add.
  mutating func add(counted fields: some Sequence<(name: String, value: String?, times: Int)>) {
    for (name, value, times) in fields where !skipped.contains(name) {
      let position = positions[name] ?? newField(name)
      guard values[position].count < Self.valuesPerField, let text = value?.trimmingWhitespace, !text.isEmpty
      else { continue }
      for _ in 0..<min(times, Self.valuesPerField - values[position].count) { values[position].append(text) }
      if values[position].count == Self.valuesPerField { unfinished -= 1 }
    }
    records += 1
  }

  /// Whether a field has all the values kept (more of them change nothing).
  func isFull(_ name: String) -> Bool { positions[name].map { values[$0].count >= Self.valuesPerField } ?? false }

  /// Starts gathering a field first seen; returns its position.
  private mutating func newField(_ name: String) -> Int {
    positions[name] = names.count
    names.append(name)
    values.append([])
    unfinished += 1
    return names.count - 1
  }
}
