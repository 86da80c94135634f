/// What a JSON record's member names say, resolved once per distinct sequence of names (``FieldShapeCache``):
/// which member plays each role, or starts its path, as ``JSONFieldLocator`` finds them. Integers only: it is
/// copied out of the cache for every record.
struct JSONMemberShape {
  /// Whether records of this shape can take the fast path: no member is an annotation member (`fx_status`,
  /// `fx_input`, the run's `fx_converted_NAME`), no name occurs twice, no two names name the same field and no member is named like a whole
  /// path beside its first step. Otherwise the general path writes the record's `invalid_record` error.
  let isUsable: Bool
  /// The 0-based member index of each role's field (or of its path's first member); −1 when the record has
  /// none.
  let amount: Int
  let from: Int
  let to: Int
  let date: Int
  /// The roles whose path goes on into the member's value, one bit per role (``bit(_:)``).
  let descending: UInt8
  /// With several amounts (`--amount-field A,B,C`): how many amounts after the first the record has as members
  /// of its own (``moreAmounts``); −1 when one of them is not such a member (a path, or missing), and the
  /// general path reads the record.
  let moreAmountCount: Int
  /// The member index of each amount after the first, a byte each (at most seven: ``InlineList/capacity``).
  let moreAmounts: UInt64

  /// The member index of amount `index + 1`.
  @inline(__always)
  func moreAmount(_ index: Int) -> Int { Int(truncatingIfNeeded: moreAmounts >> (8 * UInt64(index))) & 0xFF }

  /// The bit of a role in ``descending``.
  static func bit(_ role: FieldMapping.Role) -> UInt8 {
    switch role {
    case .amount: return 1
    case .from: return 2
    case .to: return 4
    case .date: return 8
    }
  }

  /// Whether the path of `role` goes on from its member.
  @inline(__always)
  func descends(_ role: FieldMapping.Role) -> Bool { descending & Self.bit(role) != 0 }

  /// Resolves the names of a record object.
  ///
  /// - Parameters:
  ///   - names: the member names in document order, decoded as the general parser decodes them.
  ///   - locator: the run's field locator.
  init(names: [String], locator: JSONFieldLocator) {
    // The general path's rule (``JSONFieldLocator/annotationNames``): `fx_converted_NAME` of the run too.
    if names.contains(where: { locator.annotationNames.contains($0) }) {
      (isUsable, amount, from, to, date, descending) = (false, -1, -1, -1, -1, 0)
      (moreAmountCount, moreAmounts) = (-1, 0)
      return
    }
    let memberNames = JSONFieldLocator.MemberNames(names)
    let layout = locator.layout(of: memberNames)
    isUsable = layout.problem == nil
    amount = layout.index[.amount] ?? -1
    from = layout.index[.from] ?? -1
    to = layout.index[.to] ?? -1
    date = layout.index[.date] ?? -1
    descending = layout.descends.reduce(0) { $0 | Self.bit($1) }
    // Each further amount found as its own locator finds it (``JSONFieldLocator/amountLocators``).
    var count = 0
    var packed: UInt64 = 0
    for other in locator.amountLocators.dropFirst() {
      let found = other.layout(of: memberNames)
      guard count >= 0, count < 8, found.problem == nil, found.descends.isEmpty, let index = found.index[.amount],
        index < 0xFF
      else {
        count = -1
        break
      }
      packed |= UInt64(index) << (8 * UInt64(count))
      count += 1
    }
    (moreAmountCount, moreAmounts) = (count, packed)
  }
}
