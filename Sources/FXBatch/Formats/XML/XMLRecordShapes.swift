import Foundation

/// The per-shape field lookup of scanned records (``XMLScannedRecord``): which attribute or child plays each
/// role is decided by ``XMLFieldLocator`` once per distinct shape — the sequence of attribute and child names —
/// not once per record.
struct XMLRecordShapes {
  let locator: XMLFieldLocator
  /// The document's namespaces, for the locator's paths.
  let namespaces: XMLScannedNamespaces

  /// A shape's key: per field, `1` for an attribute or `0` for a child, its name's bytes, and a `0` byte.
  private var keys: [[UInt8]] = []
  /// The same, for matching a word at a time: per field, its name's length (plus 2⁸ for an attribute), then
  /// its name's bytes in little-endian words, the last one zero-padded.
  private var words: [[UInt64]] = []
  /// The shapes' layouts (role → field, and an `invalid_record` problem).
  private(set) var layouts: [XMLFieldLocator.Layout] = []
  /// Per shape, 4 entries: the field index of the amount, from-, to-currency and date (−1: no such field).
  private var roleFields: [Int32] = []
  /// Per shape, whether its layout has a problem (read per record: a layout's arrays are not touched then).
  private var problems: [Bool] = []
  private var index: [[UInt8]: Int] = [:]
  private var last = -1
  /// With several amounts (``XMLFieldLocator/amountLocators``), how many; 0 for one amount.
  let amountCount: Int
  /// With several amounts, per shape and amount (`shape × amountCount + amount`): the layout of the amount's own
  /// locator, and its field index (−1: none).
  private var amountLayouts: [XMLFieldLocator.Layout] = []
  private var amountRoleFields: [Int32] = []
  /// Distinct shapes remembered; a document with more starts afresh (any shape is found again the same way).
  private static let limit = 4096

  init(locator: XMLFieldLocator, namespaces: [XMLScannedNamespaces.Declaration]) {
    self.locator = locator
    self.namespaces = XMLScannedNamespaces(declarations: namespaces, pathPrefixes: locator.prefixes)
    amountCount = locator.amountLocators.count
  }

  /// The fields a record's roles are read from, and whether the record has a problem (plain values: it is
  /// copied per record).
  struct RoleFields {
    var amount: XMLScannedRecord.Field? = nil
    var from: XMLScannedRecord.Field? = nil
    var to: XMLScannedRecord.Field? = nil
    var date: XMLScannedRecord.Field? = nil
    /// An `invalid_record` of the shape, or what the paths found (``XMLFieldLocator/PathResolution``).
    var hasProblem = false
    /// Whether the locator's paths or money rule decided some of them.
    var isResolved = false
  }

  /// A record's role fields: the shape's, then the locator's paths and money rule
  /// (``XMLFieldLocator/resolve(_:flatAmountElement:flatFrom:)``), as ``XMLFieldLocator/fields(of:)`` finds them.
  @inline(__always)
  func roleFields(of record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> RoleFields {
    let fields = shapeFields(of: record, shape: shape)
    guard locator.readsPaths else { return fields }
    if locator.paths.isEmpty {
      // The money rule alone: only an amount element with attributes can have a currency one.
      guard let amount = fields.amount, amount.element >= 0, !record.elements[amount.element].attributes.isEmpty
      else { return fields }
    }
    return resolved(fields, of: record, in: bytes, amount: nil)
  }

  /// The fields of amount `index` of several (``XMLFieldLocator/amountLocators``) in a record: its amount and the
  /// currency of its money element (as ``RoleFields/from``), found by the amount's own locator as
  /// ``XMLFieldLocator/fields(of:)`` finds ``RecordFields/amounts``.
  @inline(__always)
  func amountFields(_ index: Int, of record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> RoleFields {
    var fields = RoleFields()
    let slot = shape &* amountCount &+ index
    let field = Int(amountRoleFields[slot])
    if field >= 0 { fields.amount = record.fields[field] }
    fields.hasProblem = amountLayouts[slot].problem != nil || Self.holdsElements(fields.amount, record)
    let own = locator.amountLocators[index]
    guard own.readsPaths else { return fields }
    if own.paths.isEmpty {
      guard let amount = fields.amount, amount.element >= 0, !record.elements[amount.element].attributes.isEmpty
      else { return fields }
    }
    return resolved(fields, of: record, in: bytes, amount: index)
  }

  /// The role fields of a record's shape (its layout), before paths and the money rule.
  @inline(__always)
  private func shapeFields(of record: XMLScannedRecord, shape: Int) -> RoleFields {
    var fields = RoleFields()
    let amount = field(.amount, shape: shape)
    if amount >= 0 { fields.amount = record.fields[amount] }
    let from = field(.from, shape: shape)
    if from >= 0 { fields.from = record.fields[from] }
    let to = field(.to, shape: shape)
    if to >= 0 { fields.to = record.fields[to] }
    let date = field(.date, shape: shape)
    if date >= 0 { fields.date = record.fields[date] }
    fields.hasProblem =
      problems[shape] || Self.holdsElements(fields.amount, record) || Self.holdsElements(fields.from, record)
      || Self.holdsElements(fields.to, record) || Self.holdsElements(fields.date, record)
    return fields
  }

  /// Whether a flat field is a child element holding elements (``XMLFieldLocator/holdsElements(_:role:)``).
  @inline(__always)
  private static func holdsElements(_ field: XMLScannedRecord.Field?, _ record: XMLScannedRecord) -> Bool {
    guard let field, field.needsDecoding, !field.isAttribute, field.element >= 0 else { return false }
    return record.elements[field.element].hasElements
  }

  /// The problem of a record whose flat field is an element holding elements, as
  /// ``XMLFieldLocator/fields(of:)`` gives it.
  private func holdingElementsProblem(of record: XMLScannedRecord, shape: Int) -> RowError? {
    let fields = shapeFields(of: record, shape: shape)
    var holding: [FieldMapping.Role: String] = [:]
    let roles: [(FieldMapping.Role, XMLScannedRecord.Field?)] = [
      (.amount, fields.amount), (.from, fields.from), (.to, fields.to), (.date, fields.date),
    ]
    for (role, field) in roles where Self.holdsElements(field, record) {
      holding[role] = layouts[shape].located[role]
    }
    return XMLFieldLocator.holdingElementsProblem(holding)
  }

  /// - Parameter amount: the index of one of several amounts, read by its own locator; `nil`: the record's roles.
  @inline(never)
  private func resolved(_ shapeFields: RoleFields, of record: XMLScannedRecord, in bytes: ByteView, amount: Int?)
    -> RoleFields
  {
    let locator = amount.map { self.locator.amountLocators[$0] } ?? self.locator
    guard let resolution = resolution(of: record, shapeFields: shapeFields, in: bytes, locator: locator) else {
      return shapeFields
    }
    let tree = XMLScannedPathTree(record: record, bytes: bytes, namespaces: namespaces)
    var fields = shapeFields
    for (role, _) in locator.paths {
      let found = tree.field(resolution.match(role))
      switch role {
      case .amount: fields.amount = found
      case .from: fields.from = found
      case .to: fields.to = found
      case .date: fields.date = found
      }
    }
    if resolution.fromIsMoney { fields.from = tree.field(resolution.from) }
    if resolution.problem != nil { fields.hasProblem = true }
    fields.isResolved = true
    return fields
  }

  /// What the locator's paths and money rule find in a record; `nil` when neither applies to it (no paths, and
  /// an amount element without attributes).
  private func resolution(
    of record: XMLScannedRecord, shapeFields fields: RoleFields, in bytes: ByteView, locator: XMLFieldLocator
  ) -> XMLFieldLocator.PathResolution? {
    let amountElement = fields.amount.flatMap { $0.isAttribute ? nil : $0.element }
    if locator.paths.isEmpty {
      // The money rule alone: only an amount element with attributes can have a currency one.
      guard locator.readsMoneyCurrency, let amountElement, !record.elements[amountElement].attributes.isEmpty
      else { return nil }
    }
    let tree = XMLScannedPathTree(record: record, bytes: bytes, namespaces: namespaces)
    let flatFrom =
      locator.readsMoneyCurrency ? fields.from.map { XMLSimpleScanner.decodedText($0, in: bytes) } : nil
    return locator.resolve(tree, flatAmountElement: amountElement, flatFrom: flatFrom)
  }

  /// Role → field name of a record, as ``XMLFieldLocator/fields(of:)`` gives it.
  func located(_ record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> [FieldMapping.Role: String] {
    guard locator.readsPaths,
      let resolution = resolution(
        of: record, shapeFields: shapeFields(of: record, shape: shape), in: bytes, locator: locator)
    else { return layouts[shape].located }
    return locator.located(
      layouts[shape].located, resolution, in: XMLScannedPathTree(record: record, bytes: bytes, namespaces: namespaces))
  }

  /// The `invalid_record` or `missing_field` problem of a record's paths or money element, if any.
  func pathProblem(of record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> RowError? {
    guard locator.readsPaths else { return nil }
    return resolution(of: record, shapeFields: shapeFields(of: record, shape: shape), in: bytes, locator: locator)?
      .problem
  }

  /// The field index that plays a role in a shape, or −1.
  @inline(__always)
  func field(_ role: FieldMapping.Role, shape: Int) -> Int {
    let offset: Int
    switch role {
    case .amount: offset = 0
    case .from: offset = 1
    case .to: offset = 2
    case .date: offset = 3
    }
    return Int(roleFields[shape &* 4 &+ offset])
  }

  /// Whether a shape's records have an `invalid_record` problem.
  @inline(__always)
  func hasProblem(_ shape: Int) -> Bool { problems[shape] }

  /// The shape of a record (an index into ``layouts``).
  ///
  /// - Parameters:
  ///   - record: the record.
  ///   - bytes: the scanner's buffer the record's indices point into.
  @inline(__always)
  mutating func shape(of record: XMLScannedRecord, in bytes: ByteView) -> Int {
    if last >= 0, Self.matches(words[last], record, bytes) { return last }
    return lookUp(record, bytes)
  }

  @inline(never)
  private mutating func lookUp(_ record: XMLScannedRecord, _ bytes: ByteView) -> Int {
    var key: [UInt8] = []
    for field in record.fields {
      key.append(field.isAttribute ? 1 : 0)
      key.append(contentsOf: bytes.slice(field.nameStart..<field.nameEnd).buffer)
      key.append(0)
    }
    if let found = index[key] {
      last = found
      return found
    }
    if keys.count >= Self.limit {
      keys.removeAll()
      words.removeAll()
      layouts.removeAll()
      roleFields.removeAll()
      problems.removeAll()
      index.removeAll()
      amountLayouts.removeAll()
      amountRoleFields.removeAll()
    }
    func name(_ field: XMLScannedRecord.Field) -> String {
      bytes.slice(field.nameStart..<field.nameEnd).text
    }
    let names = XMLFieldLocator.LayoutNames(
      attributeNames: record.fields[..<record.attributeCount].map(name),
      childNames: record.fields[record.attributeCount...].map(name))
    let layout = locator.layout(names)
    var roles: [Int32] = [-1, -1, -1, -1]
    for (role, field) in layout.found {
      switch role {
      case .amount: roles[0] = Int32(field)
      case .from: roles[1] = Int32(field)
      case .to: roles[2] = Int32(field)
      case .date: roles[3] = Int32(field)
      }
    }
    keys.append(key)
    var word: [UInt64] = []
    for field in record.fields {
      let length = field.nameEnd - field.nameStart
      word.append(UInt64(length) | (field.isAttribute ? 1 << 8 : 0))
      for offset in stride(from: 0, to: length, by: 8) {
        var chunk: UInt64 = 0
        for index in 0..<min(8, length - offset) {
          chunk |= UInt64(bytes[field.nameStart + offset + index]) << (8 * UInt64(index))
        }
        word.append(chunk)
      }
    }
    words.append(word)
    layouts.append(layout)
    roleFields.append(contentsOf: roles)
    problems.append(layout.problem != nil)
    for amountLocator in locator.amountLocators {
      let own = amountLocator.layout(names)
      amountLayouts.append(own)
      amountRoleFields.append(Int32(own.found.first { $0.role == .amount }?.index ?? -1))
    }
    index[key] = keys.count - 1
    last = keys.count - 1
    return last
  }

  /// Whether a record's names are a shape's (``words``).
  @inline(__always)
  private static func matches(_ words: [UInt64], _ record: XMLScannedRecord, _ bytes: ByteView) -> Bool {
    words.withUnsafeBufferPointer { words in
      var at = 0
      for field in record.fields {
        let length = field.nameEnd - field.nameStart
        guard at < words.count, words[at] == UInt64(length) | (field.isAttribute ? 1 << 8 : 0) else { return false }
        at += 1
        for offset in stride(from: 0, to: length, by: 8) {
          guard at < words.count,
            words[at] == bytes.word(at: field.nameStart + offset, length: length - offset)
          else { return false }
          at += 1
        }
      }
      return at == words.count
    }
  }

  /// A record's fields as ``XMLFieldLocator/fields(of:)`` gives them for the same record read by libxml2:
  /// each role's value decoded and trimmed, and the shape's problem.
  func fields(of record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> RecordFields {
    let found = roleFields(of: record, shape: shape, in: bytes)
    func value(_ field: XMLScannedRecord.Field?) -> RecordFields.Value {
      field.map { .text(XMLSimpleScanner.decodedText($0, in: bytes).trimmingWhitespace) } ?? .absent
    }
    var fields = RecordFields(
      amount: value(found.amount), from: value(found.from), to: value(found.to), date: value(found.date))
    fields.problem =
      layouts[shape].problem
      ?? (found.hasProblem
        ? holdingElementsProblem(of: record, shape: shape) ?? pathProblem(of: record, shape: shape, in: bytes) : nil)
    for index in 0..<amountCount {
      fields.amounts.append(amountRecordFields(index, of: record, shape: shape, in: bytes))
    }
    return fields
  }

  /// Amount `index`'s own fields of several (``RecordFields/amounts``), as ``XMLFieldLocator/fields(of:)`` gives
  /// them: its amount, its money element's currency, the problem of its field alone.
  private func amountRecordFields(_ index: Int, of record: XMLScannedRecord, shape: Int, in bytes: ByteView)
    -> RecordFields
  {
    let found = amountFields(index, of: record, shape: shape, in: bytes)
    func value(_ field: XMLScannedRecord.Field?) -> RecordFields.Value {
      field.map { .text(XMLSimpleScanner.decodedText($0, in: bytes).trimmingWhitespace) } ?? .absent
    }
    var fields = RecordFields(amount: value(found.amount), from: value(found.from), to: .absent, date: .absent)
    let slot = shape &* amountCount &+ index
    let layout = amountLayouts[slot]
    var holding: [FieldMapping.Role: String] = [:]
    if let amount = layout.found.first(where: { $0.role == .amount }),
      Self.holdsElements(record.fields[amount.index], record)
    {
      holding[.amount] = layout.located[.amount]
    }
    let locator = self.locator.amountLocators[index]
    fields.problem =
      layout.problem ?? XMLFieldLocator.holdingElementsProblem(holding)
      ?? (locator.readsPaths
        ? resolution(
          of: record, shapeFields: amountShapeFields(index, of: record, shape: shape), in: bytes, locator: locator)?
          .problem : nil)
    return fields
  }

  /// Amount `index`'s fields by its layout alone, before its paths and money rule.
  private func amountShapeFields(_ index: Int, of record: XMLScannedRecord, shape: Int) -> RoleFields {
    var fields = RoleFields()
    let field = Int(amountRoleFields[shape &* amountCount &+ index])
    if field >= 0 { fields.amount = record.fields[field] }
    return fields
  }
}
