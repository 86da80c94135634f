/// Finds an XML record's fields among its attributes and child elements, as a CSV header's fields are found:
/// the names given with `--amount-field` and so on (`@currency` names an attribute only, `currency` a child
/// element or else an attribute), else the first attribute or child matching a role's synonyms
/// (``FieldMapping/Role``), ignoring case, spaces, `_`, `-` and `.`. A field's value is its text, trimmed.
///
/// A name with `/` or `:` is a path (``XMLFieldPath``), evaluated in each record: one element or attribute must
/// match, holding text. An amount element with a currency attribute (`<Amt Ccy="USD">`, ``XMLPathTree/currencyAttribute(of:)``)
/// gives the from-currency too when neither `--from` nor `--from-field` is given.
public struct XMLFieldLocator: Sendable {
  public let names: FieldNames
  public let roles: [FieldMapping.Role]
  /// The roles found by a flat name or a synonym (not by a path).
  let flatRoles: [FieldMapping.Role]
  /// The roles read through paths, in role order.
  let paths: [(role: FieldMapping.Role, path: XMLFieldPath)]
  /// The distinct prefixes of the paths (``XMLFieldPath/Step/prefixIndex``).
  let prefixes: [String]
  /// A field option that is not a path: the run cannot read XML.
  let pathError: (role: FieldMapping.Role, error: XMLFieldPathError)?
  /// Whether an amount element's currency attribute gives the from-currency.
  let readsMoneyCurrency: Bool
  /// Paths tried in order when the date path matches nothing in a record (a known document's `ValDt/Dt`
  /// after `BookgDt/Dt`, ``XMLDocumentShape``).
  let dateFallbacks: [XMLFieldPath]

  /// With several amounts (``FieldNames/amounts``), a locator of each amount alone, in order
  /// (``RecordFields/amounts``), its paths' prefixes indexed in ``prefixes``; empty for one amount.
  private(set) var amountLocators: [XMLFieldLocator]
  /// With several amounts, whether an amount after the first whose path matches several elements is the one
  /// of them whose currency attribute is the first amount's currency (a UBL invoice's two `TaxTotal`s, one in
  /// the document's currency and one in the tax currency, ``XMLDocumentShape``); none or several such is the
  /// record's `invalid_record`.
  let amountsInFirstCurrency: Bool

  /// The child element fxbatch adds to each record.
  public static let annotationElement = "fx"

  ///   - dateFallbacks: paths read, in order, when the date path (`names.date`, a path) matches nothing.
  ///   - amountsInFirstCurrency: ``amountsInFirstCurrency``.
  public init(
    names: FieldNames, fixedFrom: Bool, fixedTo: Bool, dateFallbacks: [String] = [], amountsInFirstCurrency: Bool = false
  ) {
    var prefixes: [String] = []
    self.init(
      names: names, fixedFrom: fixedFrom, fixedTo: fixedTo, dateFallbacks: dateFallbacks, amountOnly: false,
      amountsInFirstCurrency: amountsInFirstCurrency, prefixes: &prefixes)
  }

  /// - Parameters:
  ///   - amountOnly: whether it finds the amount alone (and a money element's currency), as one of several.
  ///   - prefixes: the prefixes indexed so far; its paths' are added.
  private init(
    names: FieldNames, fixedFrom: Bool, fixedTo: Bool, dateFallbacks: [String], amountOnly: Bool,
    amountsInFirstCurrency: Bool = false, prefixes: inout [String]
  ) {
    self.names = names
    self.amountsInFirstCurrency = amountsInFirstCurrency && !amountOnly && names.amounts.count > 1
    roles = amountOnly ? [.amount] : [.amount] + (fixedFrom ? [] : [.from]) + (fixedTo ? [] : [.to]) + [.date]
    var paths: [(role: FieldMapping.Role, path: XMLFieldPath)] = []
    var pathError: (role: FieldMapping.Role, error: XMLFieldPathError)? = nil
    for role in roles {
      guard let name = names.name(of: role), XMLFieldPath.isPath(name) else { continue }
      switch XMLFieldPath.parse(name) {
      case .success(let path): paths.append((role, path.indexingPrefixes(&prefixes)))
      case .failure(let error): if pathError == nil { pathError = (role, error) }
      }
    }
    var fallbacks: [XMLFieldPath] = []
    if paths.contains(where: { $0.role == .date }) {
      for text in dateFallbacks {
        switch XMLFieldPath.parse(text) {
        case .success(let path): fallbacks.append(path.indexingPrefixes(&prefixes))
        case .failure(let error): if pathError == nil { pathError = (.date, error) }
        }
      }
    }
    self.dateFallbacks = fallbacks
    self.paths = paths
    var amountLocators: [XMLFieldLocator] = []
    if !amountOnly {
      for index in names.amounts.indices {
        let locator = XMLFieldLocator(
          names: names.reading(amount: index), fixedFrom: fixedFrom, fixedTo: fixedTo, dateFallbacks: [],
          amountOnly: true, prefixes: &prefixes)
        if pathError == nil { pathError = locator.pathError }
        amountLocators.append(locator)
      }
    }
    self.amountLocators = amountLocators
    self.prefixes = prefixes
    self.pathError = pathError
    let pathRoles = paths.map(\.role)
    flatRoles = roles.filter { !pathRoles.contains($0) && !(pathError?.role == $0) }
    readsMoneyCurrency = !fixedFrom && names.from == nil
  }

  /// Whether records need more than the flat layout: a path, or the money rule.
  var readsPaths: Bool { !paths.isEmpty || readsMoneyCurrency }

  /// Where the fields were in the last record looked at: records of one document are usually laid out alike,
  /// and finding the fields by name (normalizing every name, matching synonyms) costs more than reading them.
  private var cached: Layout? = nil

  /// Where a record's fields are, which depends only on the names of its attributes and child elements.
  struct Layout: Sendable {
    let attributeNames: [String]
    let childNames: [String]
    /// Each role found and its field: an index into the attributes, then the child elements.
    let found: [(role: FieldMapping.Role, index: Int)]
    /// Role → field name (`@name` for an attribute).
    let located: [FieldMapping.Role: String]
    /// An `invalid_record` problem: an `fx` child (fxbatch output), or a field name twice.
    let problem: RowError?

    func matches(_ record: XMLRecord) -> Bool {
      attributeNames.count == record.attributes.count && childNames.count == record.children.count
        && zip(attributeNames, record.attributes).allSatisfy { $0 == $1.name }
        && zip(childNames, record.children).allSatisfy { $0 == $1.name }
    }
  }

  /// A record's fields.
  ///
  /// - Returns: the fields, with an `invalid_record` problem when the record already has an `fx` child (it is
  ///   fxbatch output) or a field name occurs twice; and role → field name (`@name` for an attribute).
  ///
  /// - Parameter inCurrency: for an amount locator under ``amountsInFirstCurrency`` (after the first), the
  ///   first amount's path and currency: an amount path matching several elements reads the one in it.
  public mutating func fields(of record: XMLRecord) -> (fields: RecordFields, located: [FieldMapping.Role: String]) {
    fields(of: record, inCurrency: nil)
  }

  mutating func fields(
    of record: XMLRecord, inCurrency: (path: String, code: String?)?
  ) -> (fields: RecordFields, located: [FieldMapping.Role: String]) {
    fields(of: record, inCurrency: inCurrency, sameShape: nil, shapeNames: nil)
  }

  /// - Parameters:
  ///   - sameShape: for one of several amounts' locators, whether the record has the names of the record before
  ///     (the outer locator checked them once; each amount's locator was called on that record too, so its
  ///     ``cached`` layout is this record's); `nil`: check.
  ///   - shapeNames: the record's names, normalized once for all the amounts' locators; `nil`: normalize them.
  ///     Without these, 10,000 amounts cost 10,000 × 10,000 name normalizations and comparisons per record.
  private mutating func fields(
    of record: XMLRecord, inCurrency: (path: String, code: String?)?, sameShape: Bool?, shapeNames: LayoutNames?
  ) -> (fields: RecordFields, located: [FieldMapping.Role: String]) {
    let layout: Layout
    var names = shapeNames
    let unchanged: Bool
    if let cached, sameShape ?? cached.matches(record) {
      layout = cached
      unchanged = true
    } else {
      let found =
        names ?? LayoutNames(attributeNames: record.attributes.map(\.name), childNames: record.children.map(\.name))
      names = found
      layout = self.layout(found)
      cached = layout
      unchanged = false
    }
    var fields = RecordFields(amount: .absent, from: .absent, to: .absent, date: .absent)
    var amountElement: Int? = nil
    var holding: [FieldMapping.Role: String] = [:]
    for (role, index) in layout.found {
      let text =
        index < record.attributes.count
        ? record.attributes[index].value : record.children[index - record.attributes.count].text
      fields.set(role, .text(text.trimmingWhitespace))
      if index >= record.attributes.count, index - record.attributes.count < record.childElements.count {
        let element = record.childElements[index - record.attributes.count]
        if role == .amount { amountElement = element }
        if record.elements[element].hasElements { holding[role] = layout.located[role] }
      }
    }
    fields.problem = layout.problem ?? Self.holdingElementsProblem(holding)
    var located = layout.located
    if !amountLocators.isEmpty {
      let firstCurrency = amountsInFirstCurrency ? amountLocators[0].moneyCurrency(in: record) : nil
      for index in amountLocators.indices {
        let (own, ownLocated) = amountLocators[index].fields(
          of: record, inCurrency: index > 0 ? firstCurrency : nil, sameShape: unchanged, shapeNames: names)
        fields.amounts.append(own)
        // A from-currency that only a later amount's money element gives.
        if located[.from] == nil, own.from != .absent { located[.from] = ownLocated[.from] }
      }
    }
    guard readsPaths else { return (fields, located) }
    var flatFrom: String? = nil
    if case .text(let text) = fields.from { flatFrom = text }
    let resolution = resolve(record, flatAmountElement: amountElement, flatFrom: flatFrom, inCurrency: inCurrency)
    for (role, _) in paths {
      let match = resolution.match(role)
      switch match {
      case .element, .attribute: fields.set(role, .text(record.text(of: match).trimmingWhitespace))
      case .none, .several: break
      }
    }
    if resolution.fromIsMoney { fields.from = .text(record.text(of: resolution.from).trimmingWhitespace) }
    fields.problem = fields.problem ?? resolution.problem
    return (fields, self.located(located, resolution, in: record))
  }

  /// Role → field name of a record (`@name` for an attribute; a path as given; `amount/@Ccy` for the currency of
  /// a money element), from its layout and what its paths found.
  func located<Tree: XMLPathTree>(
    _ layoutLocated: [FieldMapping.Role: String], _ resolution: PathResolution, in tree: Tree
  ) -> [FieldMapping.Role: String] {
    var located = layoutLocated
    for (role, path) in paths {
      if case .none = resolution.match(role) { continue }
      located[role] = role == .date && resolution.dateFallback > 0 ? dateFallbacks[resolution.dateFallback - 1].text : path.text
    }
    if resolution.fromIsMoney { located[.from] = (located[.amount] ?? "") + "/@" + tree.name(of: resolution.from) }
    return located
  }

  /// What the paths, and the money rule, find in one record.
  struct PathResolution {
    var amount = XMLPathMatch.none
    var from = XMLPathMatch.none
    var to = XMLPathMatch.none
    var date = XMLPathMatch.none
    /// Whether ``from`` is the amount element's currency attribute.
    var fromIsMoney = false
    /// Which date path matched: 0 the date path, `n` the fallback `n` (``XMLFieldLocator/dateFallbacks``).
    var dateFallback = 0
    /// The record's error: a path that matches nothing (`missing_field`), more than once, or an element that
    /// holds elements (`invalid_record`); the first in role order.
    var problem: RowError? = nil

    func match(_ role: FieldMapping.Role) -> XMLPathMatch {
      switch role {
      case .amount: return amount
      case .from: return from
      case .to: return to
      case .date: return date
      }
    }

    mutating func set(_ role: FieldMapping.Role, _ match: XMLPathMatch) {
      switch role {
      case .amount: amount = match
      case .from: from = match
      case .to: to = match
      case .date: date = match
      }
    }
  }

  /// Evaluates the paths in a record, and the money rule.
  ///
  /// - Parameters:
  ///   - tree: the record.
  ///   - flatAmountElement: the element of the amount when a flat name or synonym found it among the children.
  ///   - flatFrom: the text of the from-currency field a synonym found, which a money element's currency must
  ///     agree with (case aside).
  ///   - inCurrency: the first amount's path and currency (``amountsInFirstCurrency``): an amount path matching
  ///     several elements reads the one whose currency attribute is that currency.
  func resolve<Tree: XMLPathTree>(
    _ tree: Tree, flatAmountElement: Int?, flatFrom: String? = nil, inCurrency: (path: String, code: String?)? = nil
  ) -> PathResolution {
    var result = PathResolution()
    for (role, path) in paths {
      var match = tree.evaluate(path)
      if role == .amount, case .several(let count) = match, path.attribute == nil, let inCurrency {
        switch Self.choose(path, in: tree, currency: inCurrency.code) {
        case .success(let element): match = .element(element)
        case .failure(let reason):
          if result.problem == nil {
            result.problem = RowError(
              .invalidRecord,
              "\(RowError.quoted(path.text)) matches \(count) elements in the record and \(reason) in the currency "
                + "of \(RowError.quoted(inCurrency.path))\(inCurrency.code.map { " (\($0))" } ?? ""); fxbatch does "
                + "not pick one")
          }
          continue
        }
      }
      if role == .date, case .none = match {
        for (index, fallback) in dateFallbacks.enumerated() {
          match = tree.evaluate(fallback)
          if case .none = match { continue }
          result.dateFallback = index + 1
          break
        }
      }
      result.set(role, match)
      guard result.problem == nil else { continue }
      switch match {
      case .none where role == .date && !dateFallbacks.isEmpty:
        let all = ([path] + dateFallbacks).map { RowError.quoted($0.text) }
        result.problem = RowError(.missingField, "the record has none of \(all.joined(separator: ", "))")
      case .none:
        result.problem = RowError(.missingField, "the record has no \(RowError.quoted(path.text))")
      case .several(let count):
        let used = role == .date && result.dateFallback > 0 ? dateFallbacks[result.dateFallback - 1] : path
        result.problem = RowError(
          .invalidRecord,
          "\(RowError.quoted(used.text)) matches \(count) \(used.attribute == nil ? "elements" : "attributes") in the "
            + "record; fxbatch does not pick one")
      case .element(let element) where tree.hasElements(element):
        let used = role == .date && result.dateFallback > 0 ? dateFallbacks[result.dateFallback - 1] : path
        result.problem = Self.holdsElements(used.text, role: role)
      case .element, .attribute: break
      }
    }
    guard readsMoneyCurrency else { return result }
    var amountElement = flatAmountElement
    if paths.contains(where: { $0.role == .amount }) {
      amountElement = nil
      if case .element(let element) = result.amount { amountElement = element }
    }
    if let element = amountElement, let attribute = tree.currencyAttribute(of: element) {
      if attribute < 0 {
        if result.problem == nil {
          result.problem = RowError(
            .invalidRecord, "the amount element has more than one currency attribute (Ccy, currencyID, currency)")
        }
      } else {
        result.from = .attribute(attribute, of: element)
        result.fromIsMoney = true
        let own = tree.text(of: result.from).trimmingWhitespace
        if let other = flatFrom?.trimmingWhitespace, !other.isEmpty, own.uppercased() != other.uppercased(),
          result.problem == nil
        {
          result.problem = RowError(
            .invalidRecord,
            "the currency attribute of the amount says \(RowError.quoted(own)) and the record's from-currency field "
              + "\(RowError.quoted(other)); give --from-field to choose one")
        }
      }
    }
    return result
  }

  /// The one element a path matches whose currency attribute is `currency` (case aside), for
  /// ``amountsInFirstCurrency``.
  ///
  /// - Returns: the element, or why there is not one: `none is`, `2 are`.
  static func choose<Tree: XMLPathTree>(_ path: XMLFieldPath, in tree: Tree, currency: String?) -> Result<Int, ChoiceError> {
    guard let currency, !currency.isEmpty else { return .failure(ChoiceError(description: "none is")) }
    let found = tree.elements(matching: path).filter { element in
      guard let attribute = tree.currencyAttribute(of: element), attribute >= 0 else { return false }
      return tree.text(of: .attribute(attribute, of: element)).trimmingWhitespace.uppercased() == currency.uppercased()
    }
    switch found.count {
    case 0: return .failure(ChoiceError(description: "none is"))
    case 1: return .success(found[0])
    default: return .failure(ChoiceError(description: "\(found.count) are"))
    }
  }

  /// Why ``choose(_:in:currency:)`` found no one element.
  struct ChoiceError: Error, CustomStringConvertible {
    let description: String
  }

  /// The path of this locator's amount and the currency attribute of the one element it matches in a record
  /// (`nil` code without one).
  func moneyCurrency<Tree: XMLPathTree>(in tree: Tree) -> (path: String, code: String?)? {
    guard let (_, path) = paths.first(where: { $0.role == .amount }) else { return nil }
    guard case .element(let element) = tree.evaluate(path), let attribute = tree.currencyAttribute(of: element),
      attribute >= 0
    else { return (path.text, nil) }
    return (path.text, tree.text(of: .attribute(attribute, of: element)).trimmingWhitespace)
  }

  /// The `invalid_record` problem of a field that is an element holding elements: its text is not one value
  /// (`<Amt>5<x>1</x></Amt>` is not the amount 51), whether a path or a plain name found it.
  static func holdsElements(_ name: String, role: FieldMapping.Role) -> RowError {
    RowError(
      .invalidRecord,
      "\(RowError.quoted(name)) is an element holding elements, not text; name the one that holds the "
        + "\(role == .amount || role == .date ? role.rawValue : role.rawValue + "-currency") (\(name)/…)")
  }

  /// The problem of the first role, in role order, whose field found by a plain name (or synonym) is an
  /// element holding elements (``holdsElements(_:role:)``); `nil` when none is.
  ///
  /// - Parameter holding: role → field name of the flat fields that hold elements.
  static func holdingElementsProblem(_ holding: [FieldMapping.Role: String]) -> RowError? {
    guard !holding.isEmpty else { return nil }
    for role in [FieldMapping.Role.amount, .from, .to, .date] {
      if let name = holding[role] { return holdsElements(name, role: role) }
    }
    return nil
  }

  /// A record's attribute and child element names as ``layout(_:)`` compares them, made once per record shape
  /// and shared by the locators of several amounts.
  struct LayoutNames {
    let attributeNames: [String]
    let childNames: [String]
    /// Attributes first, then child elements, in document order.
    let candidates: [(name: String, isAttribute: Bool)]
    let normalized: [String]
    /// Local names: a name given without a prefix that no field has as written is looked for among them
    /// (`IssueDate` finds `cbc:IssueDate`).
    let locals: [String]
    let normalizedLocals: [String]
    /// For a record of many names (a record of many amounts): where each name is, so that finding each of many
    /// amounts does not scan every name; `nil` for fewer than ``lookupMinimum`` names, scanned.
    let lookup: Lookup?

    /// Of each normalized name and normalized local name, the first attribute and the first child element;
    /// how many fields have each name and each local name (an attribute's with a leading `@`, which no XML name
    /// has).
    struct Lookup {
      var attributeByName: [String: Int] = [:]
      var childByName: [String: Int] = [:]
      var attributeByLocal: [String: Int] = [:]
      var childByLocal: [String: Int] = [:]
      var nameCounts: [String: Int] = [:]
      var localCounts: [String: Int] = [:]
    }

    /// The fewest names looked up through a ``Lookup``.
    static let lookupMinimum = 64

    init(attributeNames: [String], childNames: [String]) {
      self.attributeNames = attributeNames
      self.childNames = childNames
      candidates = attributeNames.map { ($0, true) } + childNames.map { ($0, false) }
      normalized = candidates.map { FieldMapping.normalizedName($0.name) }
      locals = candidates.map { $0.name.split(separator: ":").last.map(String.init) ?? $0.name }
      normalizedLocals = locals.map(FieldMapping.normalizedName)
      guard candidates.count >= Self.lookupMinimum else {
        lookup = nil
        return
      }
      var lookup = Lookup()
      for index in candidates.indices {
        let isAttribute = candidates[index].isAttribute
        if isAttribute {
          if lookup.attributeByName[normalized[index]] == nil { lookup.attributeByName[normalized[index]] = index }
          if lookup.attributeByLocal[normalizedLocals[index]] == nil {
            lookup.attributeByLocal[normalizedLocals[index]] = index
          }
        } else {
          if lookup.childByName[normalized[index]] == nil { lookup.childByName[normalized[index]] = index }
          if lookup.childByLocal[normalizedLocals[index]] == nil { lookup.childByLocal[normalizedLocals[index]] = index }
        }
        let mark = isAttribute ? "@" : ""
        lookup.nameCounts[mark + candidates[index].name, default: 0] += 1
        lookup.localCounts[mark + locals[index], default: 0] += 1
      }
      self.lookup = lookup
    }
  }

  /// Finds the fields among a record's attribute and child element names.
  func layout(attributeNames: [String], childNames: [String]) -> Layout {
    layout(LayoutNames(attributeNames: attributeNames, childNames: childNames))
  }

  /// Finds the fields among a record's names.
  func layout(_ shape: LayoutNames) -> Layout {
    let attributeNames = shape.attributeNames
    let childNames = shape.childNames
    let candidates = shape.candidates
    let normalized = shape.normalized
    var used: Set<Int> = []
    var found: [FieldMapping.Role: Int] = [:]
    let locals = shape.locals
    let normalizedLocals = shape.normalizedLocals
    func index(named name: String) -> (index: Int, byLocalName: Bool)? {
      if let lookup = shape.lookup {
        // The same choice as the scans below, from the lookup: a child before an attribute of the name.
        if name.hasPrefix("@") {
          let wanted = FieldMapping.normalizedName(String(name.dropFirst()))
          if let index = lookup.attributeByName[wanted] { return (index, false) }
          return lookup.attributeByLocal[wanted].map { ($0, true) }
        }
        let wanted = FieldMapping.normalizedName(name)
        if let index = lookup.childByName[wanted] ?? lookup.attributeByName[wanted] { return (index, false) }
        return (lookup.childByLocal[wanted] ?? lookup.attributeByLocal[wanted]).map { ($0, true) }
      }
      if name.hasPrefix("@") {
        let wanted = FieldMapping.normalizedName(String(name.dropFirst()))
        if let index = candidates.indices.first(where: { candidates[$0].isAttribute && normalized[$0] == wanted }) {
          return (index, false)
        }
        return candidates.indices.first { candidates[$0].isAttribute && normalizedLocals[$0] == wanted }.map { ($0, true) }
      }
      let wanted = FieldMapping.normalizedName(name)
      if let index = candidates.indices.first(where: { !candidates[$0].isAttribute && normalized[$0] == wanted })
        ?? candidates.indices.first(where: { normalized[$0] == wanted })
      {
        return (index, false)
      }
      return
        (candidates.indices.first { !candidates[$0].isAttribute && normalizedLocals[$0] == wanted }
        ?? candidates.indices.first { normalizedLocals[$0] == wanted }).map { ($0, true) }
    }
    var byLocalName: Set<Int> = []
    for role in flatRoles {
      if let name = names.name(of: role), let found = index(named: name) { used.insert(found.index) }
    }
    // Several amounts: every amount's field is kept from the other roles' synonyms. Only a role found by its
    // synonyms needs them: one of 10,000 amounts, found alone, does not look up the others.
    if flatRoles.contains(where: { names.name(of: $0) == nil }) {
      for field in names.amounts where !XMLFieldPath.isPath(field.path) {
        if let found = index(named: field.path) { used.insert(found.index) }
      }
    }
    for role in flatRoles {
      if let name = names.name(of: role) {
        if let match = index(named: name) {
          found[role] = match.index
          if match.byLocalName { byLocalName.insert(match.index) }
        }
        continue
      }
      for synonym in role.synonyms {
        if let index = candidates.indices.first(where: { normalized[$0] == synonym && !used.contains($0) }) {
          used.insert(index)
          found[role] = index
          break
        }
      }
    }
    var located: [FieldMapping.Role: String] = [:]
    for (role, index) in found { located[role] = (candidates[index].isAttribute ? "@" : "") + candidates[index].name }
    var problem: RowError? = nil
    // Whether another field of the kind (attribute or child) has the name, or the local name of a field found by
    // it.
    func occursTwice(_ index: Int) -> Bool {
      if let lookup = shape.lookup {
        let mark = candidates[index].isAttribute ? "@" : ""
        return byLocalName.contains(index)
          ? lookup.localCounts[mark + locals[index], default: 0] > 1
          : lookup.nameCounts[mark + candidates[index].name, default: 0] > 1
      }
      return candidates.indices.contains {
        $0 != index && candidates[$0].isAttribute == candidates[index].isAttribute
          && (byLocalName.contains(index) ? locals[$0] == locals[index] : candidates[$0].name == candidates[index].name)
      }
    }
    let hasAnnotation =
      shape.lookup.map { $0.nameCounts[Self.annotationElement] != nil } ?? childNames.contains(Self.annotationElement)
    if hasAnnotation {
      problem = RowError(.invalidRecord, "the record already has an <fx> element; is it fxbatch output?")
    } else if let (_, index) = found.sorted(by: { $0.value < $1.value }).first(where: { occursTwice($1) }) {
      let kind = candidates[index].isAttribute ? "attribute" : "element"
      problem = RowError(
        .invalidRecord,
        byLocalName.contains(index)
          ? "two \(kind)s have the local name \(RowError.quoted(locals[index]))"
          : "the \(kind) \(RowError.quoted(candidates[index].name)) occurs twice")
    }
    return Layout(
      attributeNames: attributeNames, childNames: childNames,
      found: found.sorted { $0.value < $1.value }.map { ($0.key, $0.value) }, located: located, problem: problem)
  }
}

extension RecordFields {
  /// Sets the value of a role.
  mutating func set(_ role: FieldMapping.Role, _ value: Value) {
    switch role {
    case .amount: amount = value
    case .from: from = value
    case .to: to = value
    case .date: date = value
    }
  }
}
