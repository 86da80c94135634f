/// The fast loop's reader (``FastRecordReader``) of JSON records (a JSON Lines line, an element of a JSON
/// document's records array): reads a record in place (``FlatJSONObject``, ``JSONFieldValues`` through the
/// record's shape, ``JSONFieldDecoder``), decodes its key (``FieldKeyDecoder/key(of:in:)``) and its plain amount,
/// and puts the annotation members after its last member (``AnnotationTemplate/jsonMembers``, spaced like the
/// record's own members as ``JSONAnnotatingWriter`` spaces them).
struct JSONFastRecordReader: FastRecordReader {
  /// A record: the first `length` of `bytes`, followed by the rest of `bytes` unchanged (a line end).
  struct Record {
    let bytes: ByteView
    let length: Int
  }

  var decoder: JSONFieldDecoder
  /// The decimal mark byte of text amounts, `nil` when undecided (then only integer texts are plain).
  let decimalMark: UInt8?
  private var object = FlatJSONObject()
  /// Scratch for the objects a field path steps into.
  private var inner = FlatJSONObject()
  private let compactTemplate: AnnotationTemplate
  /// The template of the last spaced record's layout (``FlatJSONObject/layout(in:)``), and that layout; the
  /// template is `nil` when the layout is too wide for one.
  private var spaced: (template: AnnotationTemplate?, separator: [UInt8], beforeColon: [UInt8], afterColon: [UInt8])?
  /// Whether the record read last is compact (``compactTemplate``), else spaced (``spaced``).
  private var isCompact = true

  /// With several amounts (`--amount-field A,B,C`), the layout of the annotation members (a converted member per
  /// amount): the templates are made from it.
  let layout: AnnotationLayout
  /// Whether records have several amounts.
  private let hasSeveralAmounts: Bool

  /// - Parameter layout: the run's annotation fields; its NAMEs must be plain (``AnnotationTemplate/jsonMembers(layout:)``).
  init(decoder: JSONFieldDecoder, decimalMark: UInt8?, layout: AnnotationLayout = .single) {
    self.decoder = decoder
    self.decimalMark = decimalMark
    self.layout = layout
    hasSeveralAmounts = layout.amountCount > 1
    compactTemplate = AnnotationTemplate.jsonMembers(layout: layout) ?? .jsonMembers
  }

  /// The record read last's first member that is a string that is not blank, or a number, as the general
  /// reader gives it (``JSONFieldLocator/label(of:)``); `nil` when a string with escapes comes first.
  func label(of record: Record) -> String? {
    let content = record.bytes.slice(0..<record.length)
    for member in 0..<object.count {
      switch object.kind(member) {
      case .string:
        let text = object.value(member, in: content).text
        if !text.trimmingWhitespace.isEmpty { return text }
      case .number: return object.value(member, in: content).text
      case .escapedString: return nil
      case .literal, .object, .array: continue
      }
    }
    return nil
  }

  mutating func makeUnique() {
    decoder.makeUnique()
    object = FlatJSONObject()
    inner = FlatJSONObject()
  }

  @inline(__always)
  mutating func read(_ record: Record, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts)
    -> FieldKeyDecoder.Key?
  {
    let content = record.bytes.slice(0..<record.length)
    guard object.scan(content), let (_, shape) = decoder.shape(of: object, in: content),
      let fields = JSONFieldValues.find(
        in: object, shape: shape, bytes: content, locator: decoder.locator, inner: &inner),
      let key = keys.key(of: fields, in: content),
      let amount = fields.amount, Self.appendAmount(amount, in: content, mark: decimalMark, to: &amounts)
    else { return nil }
    if hasSeveralAmounts {
      // Each further amount a member of the record's own, read plainly; a money object's currency (which must
      // agree across amounts) is left to the general rules.
      guard fields.moneyAmountName < 0, shape.moreAmountCount >= 0 else { return nil }
      for index in 0..<shape.moreAmountCount {
        let member = shape.moreAmount(index)
        let field = JSONFieldValues.Field(range: object.valueRange(member), kind: object.kind(member))
        guard Self.appendAmount(field, in: content, mark: decimalMark, to: &amounts) else { return nil }
      }
    }
    // Before the conversion, which counts the record: a declined record is converted by the general path.
    isCompact = object.isCompact
    if !isCompact, spacedTemplate(for: object.layout(in: content)) == nil { return nil }
    return key
  }

  /// A record's amount when it is plain: a JSON number without an exponent (always `.`-decimal), or a string
  /// that ``FieldKeyDecoder/plainAmount(_:mark:)`` reads with the file's mark; `false` for anything else.
  @inline(__always)
  private static func appendAmount(
    _ field: JSONFieldValues.Field, in bytes: ByteView, mark: UInt8?, to amounts: inout FastRecordAmounts
  ) -> Bool {
    let value = JSONFieldValues.value(field, in: bytes)
    switch field.kind {
    case .number: return amounts.appendPlain(value, mark: UInt8(ascii: "."))
    case .string: return amounts.appendPlain(value, mark: mark)
    case .literal, .object, .array, .escapedString: return false
    }
  }

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, from converter: inout TableConverter, to output: inout ByteBuffer
  ) {
    if isCompact {
      converter.appendAnnotation(conversion, template: compactTemplate, to: &output)
    } else if let template = spaced?.template {
      // ``read(_:keys:amounts:)`` declined a spaced record without a template.
      converter.appendAnnotation(conversion, template: template, to: &output)
    }
  }

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, converted: InlineList<ExactDecimal>, from converter: inout TableConverter,
    to output: inout ByteBuffer
  ) {
    if isCompact {
      converter.appendAnnotation(conversion, converted: converted, template: compactTemplate, to: &output)
    } else if let template = spaced?.template {
      converter.appendAnnotation(conversion, converted: converted, template: template, to: &output)
    }
  }

  @inline(__always)
  func appendHead(of record: Record, to output: inout ByteBuffer) {
    output.append(record.bytes.slice(0..<object.insertion))
  }

  @inline(__always)
  func appendTail(of record: Record, to output: inout ByteBuffer) {
    output.append(record.bytes.slice(from: object.insertion))
  }

  /// The annotation template of a spaced record (`{"amount": 12.5, "from": "USD"}`), made when its layout
  /// differs from the last one's; `nil` when the spacing is too wide for a template (the general path writes
  /// the record).
  private mutating func spacedTemplate(
    for layout: (separator: ByteView, beforeColon: ByteView, afterColon: ByteView)
  ) -> AnnotationTemplate? {
    if let spaced, spaced.separator.elementsEqual(layout.separator), spaced.beforeColon.elementsEqual(layout.beforeColon),
      spaced.afterColon.elementsEqual(layout.afterColon)
    {
      return spaced.template
    }
    let made = (
      template: AnnotationTemplate.jsonMembers(
        separator: layout.separator.array, beforeColon: layout.beforeColon.array, afterColon: layout.afterColon.array,
        layout: self.layout),
      separator: layout.separator.array, beforeColon: layout.beforeColon.array, afterColon: layout.afterColon.array
    )
    spaced = made
    return made.template
  }
}

/// Pass 2's per-record fast path over JSON records.
typealias JSONRecordLoop = FastRecordLoop<JSONFastRecordReader>
