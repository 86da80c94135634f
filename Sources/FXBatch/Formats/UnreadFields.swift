/// The checks that keep a run from passing over a file's fields without saying so: a currency field that
/// `--from`/`--to` would override, a date field named with `--date-field` that no record has, and a field that
/// looks like dates when no date field is recognised (every record would get the newest rates). Every format
/// makes them on its header or first record, in pass 1, before anything is written.
extension FileError {
  /// The error for a field the run would pass over, or `nil` when the run reads every field it should.
  ///
  /// - Parameters:
  ///   - names: the header's (CSV) or the first record's field names, as the user would give them to
  ///     `--date-field` (an XML attribute as `@name`).
  ///   - values: the first record's texts in the order of `names`, `nil` where there is none (a JSON number).
  ///   - located: role → the field name the run reads it from (every record's findings for JSON and XML).
  ///   - options: the run's options (`--from`, `--to`, `--date`, `--undated`, `--override-currency-fields`,
  ///     the field names).
  ///   - nameKind: what the format calls the names ("header fields", "members", "fields").
  static func unreadField(
    names: [String], values: [String?], located: [FieldMapping.Role: String], options: BatchOptions, path: String,
    line: Int, column: Int, nameKind: String
  ) -> FileError? {
    if !options.overrideCurrencyFields,
      let (role, index) = FieldMapping.overriddenCurrencyFields(
        names: names, fieldNames: options.fieldNames, fixedFrom: options.fixedFrom != nil,
        fixedTo: options.fixedTo != nil
      ).first,
      let code = role == .from ? options.fixedFrom : options.fixedTo
    {
      let field = RowError.quoted(names[index])
      let option = "--\(role.rawValue)"
      return FileError(
        path: path, line: line, column: column,
        message: "the file has a \(role.rawValue)-currency field \(field); \(option) \(code) would override it",
        hint: "remove \(option) to read each record's currency from \(field) (\(role.optionName) NAME reads another"
          + " field), or add --override-currency-fields to convert every record \(role.rawValue) \(code) anyway")
    }
    guard located[.date] == nil else { return nil }
    if let name = options.fieldNames.date {
      let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
      return FileError(
        path: path, line: line, column: column,
        message:
          "--date-field \(RowError.quoted(name)): no record has such a field"
          + " (the first record's \(nameKind): \(shown))")
    }
    guard options.defaultDate == nil, !options.undated,
      let index = FieldMapping.likelyDateField(names: names, values: values, taken: Set(located.values))
    else { return nil }
    let name = names[index]
    let evidence =
      FieldMapping.looksLikeDateName(name)
      ? "its name says so" : "its value \(RowError.quoted(values[index] ?? "")) reads as a date"
    return FileError(
      path: path, line: line, column: column,
      message: "no date field is recognised, but the field \(RowError.quoted(name)) looks like dates (\(evidence));"
        + " without a date every record would be converted at the newest rates",
      hint: "use --date-field \(optionWord(name)) to read each record's date from it, --date YYYY-MM-DD to convert"
        + " every record on that day, or --undated to convert every record at the newest rates")
  }

  /// A field name as a shell word for a hint: as it is when it has only letters, digits and `_-.@`, else quoted
  /// and escaped (``RowError/quoted(_:)``).
  private static func optionWord(_ name: String) -> String {
    let plain =
      !name.isEmpty
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || "0123456789_-.@".unicodeScalars.contains($0))
      }
    return plain ? name : RowError.quoted(name)
  }
}
