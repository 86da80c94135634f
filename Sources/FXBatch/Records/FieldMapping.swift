import Foundation

/// User choices of which header names hold the amount, currencies and date (`--amount-field` and so on).
public struct FieldNames: Sendable, Equatable {
  public var amount: String?
  public var from: String?
  public var to: String?
  public var date: String?
  /// With several amounts (`--amount-field A,B,C`), every amount in order, the first one's path being ``amount``;
  /// empty for one amount (whose annotation stays `fx_converted`).
  public var amounts: [AmountField] = []

  public init(amount: String? = nil, from: String? = nil, to: String? = nil, date: String? = nil) {
    self.amount = amount
    self.from = from
    self.to = to
    self.date = date
  }

  /// Names with the amounts of `--amount-field A,B,C`: one amount is ``amount`` alone (its NAME unused), several
  /// are ``amounts``.
  public init(amounts: [AmountField], from: String? = nil, to: String? = nil, date: String? = nil) {
    self.init(amount: amounts.first?.path, from: from, to: to, date: date)
    self.amounts = amounts.count > 1 ? amounts : []
  }

  /// The NAMEs of several amounts in order (`fx_converted_NAME`); empty for one amount.
  public var amountNames: [String] { amounts.map(\.name) }

  /// These names with amount `index` of ``amounts`` as ``amount``: a format reads each of several amounts with
  /// them, as it reads the one amount. The others stay in ``amounts``, kept from other roles' synonyms.
  func reading(amount index: Int) -> FieldNames {
    var names = self
    names.amount = amounts[index].path
    return names
  }

  /// The name the user gave for a role, if any.
  func name(of role: FieldMapping.Role) -> String? {
    switch role {
    case .amount: return amount
    case .from: return from
    case .to: return to
    case .date: return date
    }
  }
}

/// Which field of each record holds the amount, the base (from) currency, the quote (to) currency and the
/// value date, found from the header.
public struct FieldMapping: Sendable, Equatable {
  /// A role a field can play.
  public enum Role: String, Sendable, CaseIterable {
    case amount, from, to, date

    /// Header names recognised for the role, in order of preference, compared after
    /// ``FieldMapping/normalizedName(_:)``.
    var synonyms: [String] { HeaderNames.normalized[self] ?? [] }

    var optionName: String { "--\(rawValue)-field" }

    /// The field as a message names it: "amount field", "from-currency field", "to-currency field",
    /// "date field".
    var fieldName: String {
      switch self {
      case .amount, .date: return "\(rawValue) field"
      case .from, .to: return "\(rawValue)-currency field"
      }
    }

    /// ``fieldName`` with its article, for a message that says a record or a file has none: "an amount field",
    /// "a from-currency field".
    var aField: String { (self == .amount ? "an " : "a ") + fieldName }
  }

  /// 0-based field index of the amount.
  public let amount: Int
  /// Index of the from-currency field; `nil` when `--from` fixes the currency.
  public let from: Int?
  /// Index of the to-currency field; `nil` when `--to` fixes the currency.
  public let to: Int?
  /// Index of the date field; `nil` when the file has none (rows then use `--date` or the newest rate day).
  public let date: Int?
  /// With several amounts (``FieldNames/amounts``), the index of each amount's field in order, the first being
  /// ``amount``; empty for one amount.
  public var amounts: [Int] = []

  /// A header name reduced for matching: lower-cased, without accents (`Währung` is `wahrung`), spaces, `_`, `-`
  /// and `.`.
  public static func normalizedName(_ name: String) -> String {
    let ignored = " _-.\t".unicodeScalars
    guard name.utf8.contains(where: { $0 >= 0x80 }) else {
      return String(name.lowercased().unicodeScalars.filter { !ignored.contains($0) })
    }
    // Accents off: the canonical decomposition's combining marks (U+0300 ... U+036F) dropped.
    var scalars = String.UnicodeScalarView()
    for scalar in name.decomposedStringWithCanonicalMapping.lowercased().unicodeScalars
    where !ignored.contains(scalar) && !(0x300...0x36F).contains(scalar.value) {
      scalars.append(scalar)
    }
    return String(scalars)
  }

  /// Parts of a normalised field name that say it holds dates or times (`issuedate`, `updatedat`, `paidtime`,
  /// `businessday`, `buchungsdatum`, `fechadepago`).
  static let dateNameParts = ["date", "time", "day", "datum", "fecha"]

  /// Whether a field's name says it holds dates: its normalised name (``normalizedName(_:)``, without a leading
  /// `@` of an XML attribute) contains `date`, `time`, `day`, `datum` or `fecha`.
  public static func looksLikeDateName(_ name: String) -> Bool {
    let normalized = normalizedName(name.hasPrefix("@") ? String(name.dropFirst()) : name)
    return dateNameParts.contains { normalized.contains($0) }
  }

  /// Whether a field's text is written like a date: it has a `-`, `/` or `.` and reads as a day in one of the
  /// layouts of ``DateFormat`` (`2024-03-01`, `2024-03-01T10:00:00Z`, `01/03/2024`, `1.3.2024`). A bare number
  /// (`20240301`, which could as well be an identifier) and text with words (`2024-03-01 rent`) are not taken for
  /// dates.
  public static func looksLikeDateValue(_ text: String) -> Bool {
    let trimmed = text.trimmingWhitespace
    let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")]
    guard trimmed.utf8.contains(where: separators.contains),
      !trimmed.unicodeScalars.contains(where: { $0.properties.isAlphabetic && $0 != "T" && $0 != "Z" })
    else { return false }
    return DateFormat.allCases.contains { format in
      if case .success = format.parse(trimmed) { return true }
      return false
    }
  }

  /// Whether a field's text is a date written `YYYYMMDD`, as fxbatch reads it, with a year from 1970 to 2099
  /// (`20240301`; not `10004711` or `20241301`). Alone it does not make a field look like dates
  /// (``likelyDateField(names:values:taken:)`` wants every value seen to be one).
  public static func looksLikeCompactDate(_ text: String) -> Bool {
    let bytes = Array(text.trimmingWhitespace.utf8)
    guard bytes.count == 8, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let year = CalendarDay.number(bytes[0..<4]), (1970...2099).contains(year),
      let month = CalendarDay.number(bytes[4..<6]), let day = CalendarDay.number(bytes[6..<8])
    else { return false }
    return CalendarDay(year: year, month: month, day: day) != nil
  }

  /// Whether a field's values are currency codes: each is a code of ``ISO4217`` written in capitals or in small
  /// letters (`USD`, `usd`; not `Usd`, `USA`, `DE` or `the`). `false` for no values.
  public static func looksLikeCurrencyCodes(_ values: [String]) -> Bool {
    !values.isEmpty
      && values.allSatisfy { value in
        let text = value.trimmingWhitespace
        return (text == text.uppercased() || text == text.lowercased()) && CurrencyCode(text) != nil
      }
  }

  /// The first field that looks like it holds dates when no field was recognised as the date: by its name
  /// (``looksLikeDateName(_:)``), else by its values: its first non-empty value is written like a date
  /// (``looksLikeDateValue(_:)``), or every value seen is a `YYYYMMDD` date (``looksLikeCompactDate(_:)``).
  ///
  /// - Parameters:
  ///   - names: the fields' names (an XML attribute as `@name`).
  ///   - values: each field's first non-empty texts over the records looked at (``FieldSamples``), in the order
  ///     of `names`; missing or empty for a field that had none.
  ///   - taken: the names of the fields the amount and the currencies are read from; they are not candidates.
  /// - Returns: the index of the field, or `nil` when no field looks like dates.
  public static func likelyDateField(names: [String], values: [[String]], taken: Set<String>) -> Int? {
    let candidates = names.indices.filter { !taken.contains(names[$0]) }
    if let index = candidates.first(where: { looksLikeDateName(names[$0]) }) { return index }
    return candidates.first { index in
      guard index < values.count, let first = values[index].first else { return false }
      return looksLikeDateValue(first) || values[index].allSatisfy(looksLikeCompactDate)
    }
  }

  /// The first field whose values are currency codes (``looksLikeCurrencyCodes(_:)``) among the fields not read.
  ///
  /// - Parameters:
  ///   - names: the fields' names.
  ///   - values: each field's first non-empty texts (``FieldSamples``), in the order of `names`.
  ///   - taken: the names of the fields the run reads; they are not candidates.
  public static func likelyCurrencyField(names: [String], values: [[String]], taken: Set<String>) -> Int? {
    names.indices.first { index in
      !taken.contains(names[index]) && index < values.count && looksLikeCurrencyCodes(values[index])
    }
  }

  /// The currency fields that `--from CODE` and `--to CODE` would pass over: the field each fixed role would be
  /// read from without the option (the field named with `--from-field`/`--to-field`, else the first synonym, as
  /// ``locate(in:names:roles:)`` finds it with every role looked for).
  ///
  /// - Parameters:
  ///   - names: a record's (or the header's) field names (an XML attribute as `@name`).
  ///   - fieldNames: the names the user gave.
  ///   - fixedFrom: whether `--from` gives the from-currency.
  ///   - fixedTo: whether `--to` gives the to-currency.
  /// - Returns: each fixed role whose field is there, with the field's index, from before to.
  public static func overriddenCurrencyFields(names: [String], fieldNames: FieldNames, fixedFrom: Bool, fixedTo: Bool)
    -> [(role: Role, index: Int)]
  {
    guard fixedFrom || fixedTo else { return [] }
    func bare(_ name: String) -> String { normalizedName(name.hasPrefix("@") ? String(name.dropFirst()) : name) }
    let found = locate(in: names.map(bare), names: fieldNames, roles: Role.allCases, normalize: bare)
    return [(Role.from, fixedFrom), (Role.to, fixedTo)].compactMap { role, fixed in
      guard fixed, let index = found[role] else { return nil }
      return (role, index)
    }
  }

  /// Finds the fields in a header.
  ///
  /// - Parameters:
  ///   - header: the header's field values.
  ///   - names: names the user gave; each must be in the header (case-insensitive).
  ///   - fixedFrom: whether `--from` gives the from-currency (no field needed).
  ///   - fixedTo: whether `--to` gives the to-currency.
  /// - Throws: ``FieldMappingError`` when a named field is absent, a needed role has no field, or two columns name
  ///   the field of a role (`amount` and `Amount`, or one name twice) — fxbatch never picks one silently. A name
  ///   the user gave is taken as written when exactly one column has it, so `--amount-field Amount` chooses
  ///   between `amount` and `Amount`.
  public static func resolve(header: [String], names: FieldNames, fixedFrom: Bool, fixedTo: Bool) throws(FieldMappingError)
    -> FieldMapping
  {
    var mapping = try resolveOne(header: header, names: names, fixedFrom: fixedFrom, fixedTo: fixedTo)
    guard !names.amounts.isEmpty else { return mapping }
    // Each other amount is found as the one amount is, with the same checks: the column of its name when exactly
    // one column has that name as written, else the first of its normalized name, refused when other columns
    // have that normalized name too (less the from-, to- and date columns). These are the first amount's: every
    // amount's name is kept from synonyms, whichever amount is read. By dictionaries built once, so that 10,000
    // amounts over 10,000 columns stay linear.
    let normalized = header.map(normalizedName)
    var written: [String: [Int]] = [:]
    var byNormalized: [String: [Int]] = [:]
    for index in header.indices {
      written[header[index], default: []].append(index)
      byNormalized[normalized[index], default: []].append(index)
    }
    let otherRoles = Set([mapping.from, mapping.to, mapping.date].compactMap { $0 })
    mapping.amounts = [mapping.amount]
    for field in names.amounts.dropFirst() {
      let exactly = written[field.path] ?? []
      guard let index = exactly.count == 1 ? exactly[0] : byNormalized[normalizedName(field.path)]?.first else {
        throw .namedFieldMissing(role: .amount, name: field.path, header: header)
      }
      if exactly.count != 1 {
        let clashing = byNormalized[normalized[index], default: []].filter { $0 == index || !otherRoles.contains($0) }
        if clashing.count > 1 {
          throw .ambiguousField(role: .amount, names: clashing.map { header[$0] }, columns: clashing)
        }
      }
      mapping.amounts.append(index)
    }
    return mapping
  }

  /// ``resolve(header:names:fixedFrom:fixedTo:)`` of ``FieldNames/amount`` alone.
  private static func resolveOne(header: [String], names: FieldNames, fixedFrom: Bool, fixedTo: Bool)
    throws(FieldMappingError) -> FieldMapping
  {
    let roles: [Role] = [.amount] + (fixedFrom ? [] : [.from]) + (fixedTo ? [] : [.to]) + [.date]
    let normalized = header.map(normalizedName)
    let found = locate(in: normalized, names: names, roles: roles, exact: header)
    for role in roles where found[role] == nil {
      if let name = names.name(of: role) { throw .namedFieldMissing(role: role, name: name, header: header) }
      // Without a from-currency field each record's amount may name its currency (`USD 1,234.56`, `€12.50`); a
      // record whose amount names none is its own `missing_field` (``RecordNormalizer``).
      if role == .amount || role == .to { throw .roleMissing(role: role, header: header) }
    }
    let assigned = Set(found.values)
    for role in roles {
      guard let index = found[role] else { continue }
      // The columns the role's field could as well be: a name given twice exactly, else the same name after
      // normalization, less the columns other roles read.
      let exactly = names.name(of: role).map { name in header.indices.filter { header[$0] == name } } ?? []
      let clashing =
        exactly.count == 1
        ? [] : header.indices.filter { $0 == index || (normalized[$0] == normalized[index] && !assigned.contains($0)) }
      if clashing.count > 1 {
        throw .ambiguousField(role: role, names: clashing.map { header[$0] }, columns: clashing)
      }
    }
    guard let amount = found[.amount] else { throw .roleMissing(role: .amount, header: header) }
    return FieldMapping(amount: amount, from: found[.from], to: found[.to], date: found[.date])
  }

  /// Finds the field of each role among a record's names, requiring none: the field the user named, else the
  /// first unused synonym in the role's order of preference.
  ///
  /// - Parameters:
  ///   - normalized: the names, each reduced with ``normalizedName(_:)``.
  ///   - names: names the user gave (`--amount-field` and so on); a named field that is absent is not found.
  ///   - roles: the roles to look for, in this order (a synonym is taken by the first role that matches it).
  /// - Returns: role → 0-based index of its field, for the roles found.
  ///   - normalize: how a name the user gave is reduced to compare with `normalized`.
  ///   - exact: the names as written, when a name the user gave that exactly one of them has is that field (else
  ///     the first field with its normalized name).
  ///   - reserved: fields read by roles found another way (a JSON path's first member): no synonym takes them.
  static func locate(
    in normalized: [String], names: FieldNames, roles: [Role], normalize: (String) -> String = normalizedName,
    exact: [String]? = nil, reserved: Set<Int> = []
  ) -> [Role: Int] {
    func field(named name: String) -> Int? {
      if let exact, let index = exact.firstIndex(of: name), exact.lastIndex(of: name) == index { return index }
      return normalized.firstIndex(of: normalize(name))
    }
    // Fields the user named are kept from synonym matching, so a synonym never takes another role's field. Only
    // a role found by its synonyms needs them: one of 10,000 named amounts, found alone, does not look up the others.
    let bySynonym = roles.contains { names.name(of: $0) == nil }
    var used =
      !bySynonym
      ? reserved
      : reserved.union(
        ([names.amount, names.from, names.to, names.date] + names.amounts.map(\.path)).compactMap { name in
          name.flatMap(field(named:))
        })
    var found: [Role: Int] = [:]
    for role in roles {
      if let name = names.name(of: role) {
        found[role] = field(named: name)
        continue
      }
      for synonym in role.synonyms {
        if let index = normalized.indices.first(where: { normalized[$0] == synonym && !used.contains($0) }) {
          used.insert(index)
          found[role] = index
          break
        }
      }
    }
    return found
  }
}

/// Why the header does not say where the amount or currencies are.
public enum FieldMappingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `--amount-field` (or another) names a field the header does not have.
  case namedFieldMissing(role: FieldMapping.Role, name: String, header: [String])
  /// No header name matches the role's synonyms.
  case roleMissing(role: FieldMapping.Role, header: [String])
  /// Two or more columns name the field of a role (their names and 0-based indices).
  case ambiguousField(role: FieldMapping.Role, names: [String], columns: [Int])

  public var description: String {
    switch self {
    case .namedFieldMissing(let role, let name, let header):
      let missing = "\(role.optionName) \(RowError.quoted(name)): no such field in the header (\(Self.describe(header)))"
      // `--amount-field 'Total, EUR'` names two amounts, `Total` and ` EUR`: say so when a field starts with it.
      guard role == .amount,
        let field = header.first(where: {
          $0.contains(",") && $0.prefix(while: { $0 != "," }).trimmingCharacters(in: .whitespaces) == name
        })
      else { return missing }
      let escaped = field.replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "=", with: "\\=")
      return missing
        + "; --amount-field splits at commas (several amounts): for the field \(RowError.quoted(field)) "
        + "write --amount-field \(RowError.quoted(escaped))"
    case .roleMissing(let role, let header):
      let fix = role == .amount ? "use --amount-field NAME" : "use \(role.optionName) NAME or --\(role.rawValue) CODE"
      return "the header has no \(role.fieldName) (\(Self.describe(header))); \(fix)"
    case .ambiguousField(let role, let names, let columns):
      let listed = zip(names, columns).map { "\(RowError.quoted($0)) (column \($1 + 1))" }.joined(separator: " and ")
      // A name no other column has exactly can be chosen; a name given twice cannot.
      let fix =
        Set(names).count == names.count
        ? "choose one with \(role.optionName) NAME, its exact name"
        : "rename one of them (\(role.optionName) NAME chooses a column by a name no other column has)"
      let every = names.count == 2 ? "both" : "all"
      return "the header's columns \(listed) \(every) name the \(role.fieldName); fxbatch does not pick one: \(fix)"
    }
  }

  /// The header's names for a message: quoted and escaped (a file cannot put control characters on the
  /// terminal), at most 12 of them.
  private static func describe(_ header: [String]) -> String {
    header.prefix(12).map(RowError.quoted).joined(separator: ", ") + (header.count > 12 ? ", … (\(header.count) fields)" : "")
  }
}
