/// The checks that keep a run from passing over a file's fields without saying so: a currency field that
/// `--from`/`--to` would override (found by its name, or by its values being currency codes), a date field named
/// with `--date-field` that no record has, a field that looks like dates when no date field is recognised
/// (every record would get the newest rates), and no date field at all under `--date-format unix|unix-ms`. Every format makes them in pass 1, before anything is written: on
/// its header or first record's names, and on the first non-empty values of the fields the run does not read
/// (``FieldSamples``).
extension FileError {
  /// The error for a field the run would pass over, or `nil` when the run reads every field it should.
  ///
  /// - Parameters:
  ///   - names: the header's (CSV) or the first record's field names, as the user would give them to
  ///     `--date-field` (an XML attribute as `@name`).
  ///   - located: role → the field name the run reads it from (every record's findings for JSON and XML).
  ///   - options: the run's options (`--from`, `--to`, `--date`, `--undated`, `--override-currency-fields`,
  ///     the field names).
  ///   - nameKind: what the format calls the names ("header fields", "members", "fields").
  ///   - samples: reads the first non-empty values of the fields not in `located` (``FieldSamples``); called
  ///     only when a check needs values.
  static func unreadField(
    names: [String], located: [FieldMapping.Role: String], options: BatchOptions, path: String, line: Int,
    column: Int, nameKind: String, samples: (Set<String>) -> FieldSamples
  ) -> FileError? {
    let overriding = !options.overrideCurrencyFields && (options.fixedFrom != nil || options.fixedTo != nil)
    if overriding,
      let (role, index) = FieldMapping.overriddenCurrencyFields(
        names: names, fieldNames: options.fieldNames, fixedFrom: options.fixedFrom != nil,
        fixedTo: options.fixedTo != nil
      ).first
    {
      return overriddenCurrency(names[index], role: role, values: nil, options: options, at: (path, line, column))
    }
    let dateless = located[.date] == nil
    if dateless, let name = options.fieldNames.date {
      let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
      return FileError(
        path: path, line: line, column: column,
        message:
          "--date-field \(RowError.quoted(name)): no record has such a field"
          + " (the first record's \(nameKind): \(shown))",
        hint: FileError.separatorHint(name, nameKind: nameKind))
    }
    let checkDates = dateless && options.defaultDate == nil && !options.undated
    // Unix times are numbers, which never look like dates: a file whose date field is not found would convert
    // every record at the newest rates without a word.
    if checkDates, options.dateFormat.isUnix {
      let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
      return FileError(
        path: path, line: line, column: column,
        message:
          "--date-format \(options.dateFormat.rawValue): no date field is recognised (the first record's \(nameKind): \(shown))",
        hint: "name it with --date-field NAME (a payment API's is often created), or pass --date YYYY-MM-DD or --undated")
    }
    // Several amounts (``FieldNames/amounts``): every amount's field is read, whatever it looks like.
    let amountPaths = options.fieldNames.amounts.map(\.path)
    let amountNames = Set(amountPaths.map(FieldMapping.normalizedName))
    let taken = Set(located.values).union(amountPaths).union(
      names.filter { amountNames.contains(FieldMapping.normalizedName($0)) })
    if checkDates, let index = FieldMapping.likelyDateField(names: names, values: [], taken: taken) {
      return likelyDates(names[index], values: [], at: (path, line, column))
    }
    // Without a from-currency field, each record's amount must name its currency (`USD 12.50`); a field of
    // currency codes under a name fxbatch does not know would be passed over, unless the amounts seen name theirs.
    let fromless = located[.from] == nil && options.fixedFrom == nil && options.fieldNames.from == nil
    guard overriding || checkDates || fromless else { return nil }
    let amountName = fromless ? located[.amount] : nil
    let found = samples(amountName.map { taken.subtracting([$0]) } ?? taken)
    let amountsNameCurrencies =
      amountName.flatMap { found.names.firstIndex(of: $0) }.map { index in
        !found.values[index].isEmpty && found.values[index].allSatisfy { options.currencies.currency(ofAmount: $0) != nil }
      } ?? false
    if fromless, !overriding, !amountsNameCurrencies,
      let index = FieldMapping.likelyCurrencyField(names: found.names, values: found.values, taken: taken)
    {
      let name = found.names[index]
      return FileError(
        path: path, line: line, column: column,
        message:
          "no from-currency field is recognised, but the field \(RowError.quoted(name)) holds currency codes (\(shown(found.values[index])))",
        hint: "use --from-field \(optionWord(name)) to read each record's currency from it")
    }
    if overriding,
      let index = FieldMapping.likelyCurrencyField(names: found.names, values: found.values, taken: taken)
    {
      let role: FieldMapping.Role = options.fixedFrom != nil ? .from : .to
      return overriddenCurrency(
        found.names[index], role: role, values: found.values[index], options: options, at: (path, line, column))
    }
    if checkDates, let index = FieldMapping.likelyDateField(names: found.names, values: found.values, taken: taken) {
      return likelyDates(found.names[index], values: found.values[index], at: (path, line, column))
    }
    return nil
  }

  /// The refusal of `--from`/`--to` over a currency field: found by its name (`values` `nil`), or by its values.
  private static func overriddenCurrency(
    _ name: String, role: FieldMapping.Role, values: [String]?, options: BatchOptions,
    at place: (path: String, line: Int, column: Int)
  ) -> FileError {
    let code = (role == .from ? options.fixedFrom : options.fixedTo).map(\.description) ?? ""
    let field = RowError.quoted(name)
    let option = "--\(role.rawValue)"
    let evidence = values.map { " (its values are currency codes: \(shown($0)))" } ?? ""
    let read =
      values == nil
      ? "remove \(option) to read each record's currency from \(field) (\(role.optionName) NAME reads another field)"
      : "use \(role.optionName) \(optionWord(name)) instead of \(option) to read each record's currency from \(field)"
    return FileError(
      path: place.path, line: place.line, column: place.column,
      message: "the file has a \(role.rawValue)-currency field \(field)\(evidence); \(option) \(code) would override it",
      hint: read + ", or add --override-currency-fields to convert every record \(role.rawValue) \(code) anyway")
  }

  /// The refusal of a file without a date field that has a field looking like dates: by its name (`values`
  /// empty), or by its first non-empty values.
  private static func likelyDates(_ name: String, values: [String], at place: (path: String, line: Int, column: Int))
    -> FileError
  {
    let evidence: String
    if FieldMapping.looksLikeDateName(name) {
      evidence = "its name says so"
    } else if let first = values.first, FieldMapping.looksLikeDateValue(first) {
      evidence = "its value \(RowError.quoted(first)) reads as a date"
    } else {
      evidence = "its values \(shown(values)) read as YYYYMMDD dates"
    }
    return FileError(
      path: place.path, line: place.line, column: place.column,
      message: "no date field is recognised, but the field \(RowError.quoted(name)) looks like dates (\(evidence));"
        + " without a date every record would be converted at the newest rates",
      hint: "use --date-field \(optionWord(name)) to read each record's date from it, --date YYYY-MM-DD to convert"
        + " every record on that day, or --undated to convert every record at the newest rates")
  }

  /// A field's first values for a message: quoted, at most 3.
  private static func shown(_ values: [String]) -> String {
    values.prefix(3).map(RowError.quoted).joined(separator: ", ") + (values.count > 3 ? ", …" : "")
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
