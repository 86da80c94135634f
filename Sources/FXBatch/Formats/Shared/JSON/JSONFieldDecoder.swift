/// Finds the shape of a JSON record read in place (``FieldShapeCache`` of ``JSONMemberShape``), through which
/// ``JSONFieldValues`` finds its fields, for pass 1 and the fast path; their values are decoded by the one cached
/// key decoder (``FieldKeyDecoder/key(of:in:)``, ``JSONRecordReader``).
///
/// It decides nothing of its own: a new shape is resolved by ``JSONFieldLocator``'s rules, a value by
/// ``FieldKeyDecoder``'s, and anything else (an error, a currency that is not a string, an amount with grouping
/// or an exponent) returns `nil`: the caller takes the general path for that record, so the output is the same
/// either way (`JSONLinesFastPathTests` compares them).
struct JSONFieldDecoder {
  let locator: JSONFieldLocator
  private var shapes = FieldShapeCache<JSONMemberShape>()

  init(locator: JSONFieldLocator) {
    self.locator = locator
  }

  /// Gives this copy its own caches (before it runs on another thread; see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    shapes = FieldShapeCache()
  }

  /// The shape of a record and its index; `nil` when the record must take the general path (a shape that is
  /// not usable, or one past the cache's limit).
  @inline(__always)
  mutating func shape(of object: FlatJSONObject, in bytes: ByteView) -> (
    index: Int, shape: JSONMemberShape
  )? {
    let locator = self.locator
    guard
      let (index, shape) = shapes.shape(
        count: object.count, name: { object.name($0, in: bytes) },
        resolve: { JSONMemberShape(names: $0, locator: locator) }),
      shape.isUsable
    else { return nil }
    return (index, shape)
  }
}
