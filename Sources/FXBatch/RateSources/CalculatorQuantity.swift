/// A quantity as the calculator writes it in `lhs` and `rhs`: a number, then the unit's name
/// (`"536.912752 Indian rupees"`, `"1 000 000 British pounds"`, `"1.28534704 million Ugandan shillings"`).
///
/// The number is read exactly or not at all:
/// - digits with an optional `.` fraction;
/// - digit groups of three after a first group of one to three digits, all separated by the same spelling of
///   one separator: a space, a no-break space (U+00A0, whichever byte form the body used; `&#160;`;
///   `&nbsp;`), a narrow no-break space (U+202F) or a comma (`1,000,000`); also U+0080 (`\u0080`, `\x80` or
///   the bytes C2 80), which captured answers hold where the live service sent a no-break space — only between
///   digit groups, where the grouping rules show it is a separator, never as the gap before the unit;
/// - then optionally a scale word, `thousand`, `million`, `billion` or `trillion` (×10^3, 10^6, 10^9, 10^12),
///   or a power of ten as the calculator's HTML writes it: `1.5 &#215; 10<sup>13</sup>` (also with `&times;`
///   or `×`, and a negative exponent), never both.
///
/// The number must end at the end of the text or at a space before the unit; the unit is any text and is not
/// interpreted. Anything else, such as an uneven group (`1 00 000`), a scale word the reader does not know
/// (`zillion`, `lakh`), a decimal comma (`1,5`), an exponent (`1e5`) or another control character between digits,
/// is refused rather than guessed.
public struct CalculatorQuantity: Sendable, Equatable {
  /// The number, scale word and power of ten applied.
  public let value: ExactDecimal
  /// The text after the number and its scale, e.g. `"Indian rupees"`; may be empty.
  public let unit: String

  /// Reads a quantity.
  ///
  /// - Parameter text: an `lhs` or `rhs` value, escapes already decoded.
  /// - Returns: `nil` when the text does not start with a number of the form above, or its value needs more
  ///   than ``ExactDecimal/maximumDigits`` digits.
  public init?(reading text: String) {
    var reader = Reader(scalars: Array(text.unicodeScalars))
    guard let quantity = reader.read() else { return nil }
    self.value = quantity.value
    self.unit = quantity.unit
  }
}

extension CalculatorQuantity {
  private static let scaleWords: [String: Int] = ["thousand": 3, "million": 6, "billion": 9, "trillion": 12]
  /// Words that would scale a number but whose factor the reader does not apply: refusing them beats reading
  /// "2 lakh" as 2. Any word ending in "illion", and the plural of a scale word, are treated the same way.
  private static let unsupportedScaleWords: Set<String> = ["hundred", "lakh", "crore", "milliard", "billiard"]

  /// Whether `word` (lowercased) scales a number in a way the reader does not apply.
  private static func isUnsupportedScaleWord(_ word: String) -> Bool {
    let stem = word.hasSuffix("s") ? String(word.dropLast()) : word
    return stem.hasSuffix("illion") || scaleWords[stem] != nil || unsupportedScaleWords.contains(stem)
  }

  /// Spellings that separate digit groups (and, except the comma, the number from its unit).
  private static let separators: [[Unicode.Scalar]] = [" ", "\u{A0}", "\u{202F}", "&#160;", "&nbsp;", ","].map {
    Array($0.unicodeScalars)
  }
  /// Spellings that separate digit groups only: ``separators`` and U+0080, the corrupted no-break space of
  /// captured answers.
  private static let groupSeparators: [[Unicode.Scalar]] = separators + [["\u{80}"]]
  private static let timesSigns: [[Unicode.Scalar]] = ["\u{D7}", "&#215;", "&times;"].map { Array($0.unicodeScalars) }

  private struct Reader {
    let scalars: [Unicode.Scalar]
    var index = 0

    mutating func read() -> (value: ExactDecimal, unit: String)? {
      while index < scalars.count, scalars[index] == " " { index += 1 }
      guard var value = readNumber() else { return nil }
      var scaled = false
      // A power of ten, "× 10<sup>N</sup>", may follow after a space.
      var probe = index
      if let space = spaceSeparator(at: probe) { probe += space }
      if let times = Self.match(CalculatorQuantity.timesSigns, in: scalars, at: probe) {
        index = probe + times
        guard let exponent = readPowerOfTen(), let power = value.timesPowerOfTen(exponent) else { return nil }
        value = power
        scaled = true
      }
      guard skipGapAfterNumber() else { return nil }
      let scale = nextWord()
      if let exponent = CalculatorQuantity.scaleWords[scale.text], !scaled {
        guard let power = value.timesPowerOfTen(exponent) else { return nil }
        value = power
        index = scale.end
        guard skipGapAfterNumber() else { return nil }
      }
      // A scale word now is one not applied ("1.5 zillion", "2 trillion trillion", "1.5 × 10¹³ million").
      let word = nextWord().text
      guard CalculatorQuantity.scaleWords[word] == nil, !CalculatorQuantity.isUnsupportedScaleWord(word) else { return nil }
      return (value, String(String.UnicodeScalarView(scalars[index...])))
    }

    /// Moves past the space between the number (or its scale word) and the unit; `false` when the number is
    /// followed by anything else, such as a digit ("5.1 234") or glued text ("10USD", "1e5").
    private mutating func skipGapAfterNumber() -> Bool {
      guard index < scalars.count else { return true }
      guard let space = spaceSeparator(at: index), !isDigit(at: index + space) else { return false }
      index += space
      return true
    }

    /// The letters at the index, lowercased, and where they end; the index does not move.
    private func nextWord() -> (text: String, end: Int) {
      var end = index
      while end < scalars.count, scalars[end].properties.isAlphabetic { end += 1 }
      return (String(String.UnicodeScalarView(scalars[index..<end])).lowercased(), end)
    }

    /// Digits with optional groups and fraction; the index ends after them.
    private mutating func readNumber() -> ExactDecimal? {
      var digits = readDigits()
      guard !digits.isEmpty else { return nil }
      var groupSeparator: [Unicode.Scalar]?
      while let length = Self.match(CalculatorQuantity.groupSeparators, in: scalars, at: index),
        isDigit(at: index + length)
      {
        let spelling = Array(scalars[index..<index + length])
        if let groupSeparator {
          guard spelling == groupSeparator else { return nil }
        } else {
          // The first group: one to three digits, no leading zero.
          guard digits.count <= 3, digits.first != "0" else { return nil }
          groupSeparator = spelling
        }
        index += length
        let group = readDigits()
        guard group.count == 3 else { return nil }
        digits += group
      }
      if index < scalars.count, scalars[index] == "." {
        index += 1
        let fraction = readDigits()
        guard !fraction.isEmpty else { return nil }
        digits += "." + fraction
      }
      return ExactDecimal(digits)
    }

    /// `10<sup>N</sup>` after the times sign (and an optional space); returns N.
    private mutating func readPowerOfTen() -> Int? {
      if let space = spaceSeparator(at: index) { index += space }
      guard consume("10<sup>") else { return nil }
      var negative = false
      if index < scalars.count, scalars[index] == "-" || scalars[index] == "\u{2212}" {
        negative = true
        index += 1
      }
      let digits = readDigits()
      guard (1...2).contains(digits.count), let magnitude = Int(digits), consume("</sup>") else { return nil }
      return negative ? -magnitude : magnitude
    }

    private mutating func readDigits() -> String {
      let start = index
      while isDigit(at: index) { index += 1 }
      return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    private mutating func consume(_ text: String) -> Bool {
      guard let length = Self.match([Array(text.unicodeScalars)], in: scalars, at: index) else { return false }
      index += length
      return true
    }

    private func isDigit(at position: Int) -> Bool {
      position < scalars.count && ("0"..."9").contains(scalars[position])
    }

    /// The length of a separator spelling at `position`.
    private func separator(at position: Int) -> Int? {
      Self.match(CalculatorQuantity.separators, in: scalars, at: position)
    }

    /// The length of a separator spelling other than the comma at `position`.
    private func spaceSeparator(at position: Int) -> Int? {
      guard position < scalars.count, scalars[position] != "," else { return nil }
      return separator(at: position)
    }

    private static func match(_ spellings: [[Unicode.Scalar]], in scalars: [Unicode.Scalar], at position: Int) -> Int? {
      for spelling in spellings where scalars.count - position >= spelling.count {
        if scalars[position..<position + spelling.count].elementsEqual(spelling) { return spelling.count }
      }
      return nil
    }
  }
}

extension ExactDecimal {
  /// `self × 10^exponent`, exactly; `nil` when it needs more than ``maximumDigits`` digits or a scale beyond
  /// ``maximumDigits``.
  fileprivate func timesPowerOfTen(_ exponent: Int) -> ExactDecimal? {
    guard exponent < 0 else {
      guard exponent <= Self.maximumDigits else { return nil }
      return multiplied(by: ExactDecimal(significand: Int128(Self.powerOfTen(exponent)), scale: 0))
    }
    guard scale - exponent <= Self.maximumDigits else { return nil }
    return ExactDecimal(significand: significand, scale: scale - exponent).normalized
  }
}
