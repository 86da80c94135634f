/// An amount cell taken apart before any decimal mark is applied: its sign, its currency mark, and the
/// characters of its number.
///
/// Shapes (fxbatch issue 6): `+`/`-`/U+2212 minus/U+2013 en dash before the number, `-`/U+2212/U+2013 after it
/// (`12.50-`), accounting parentheses around it (`(123.45)`), and one currency symbol or code before or after
/// it (`$1,200.00`, `1.200,00 €`, `USD 5`, `5 EUR`), in any order, with spaces between them or not. At most
/// one sign counts: `(-5)` and `-(5)` are refused, as are a second currency mark and anything else.
struct AmountCell: Equatable {
  /// Whether a minus sign or accounting parentheses make the amount negative.
  let isNegative: Bool
  /// The currency symbol or code as written (`"$"`, `"EUR"`, `"zł"`), or `nil`.
  let currencyMark: String?
  /// The number: digits, group separators and decimal marks, from the first digit to the last one, plus a
  /// `.` or `,` just before it (`.5`) or just after it (`12.`).
  let number: [Unicode.Scalar]

  /// Characters that may separate digit groups or be the decimal mark: `,` `.` `'` space, U+00A0 no-break
  /// space, U+202F narrow no-break space.
  static let separators: Set<Unicode.Scalar> = [",", ".", "'", " ", "\u{00A0}", "\u{202F}"]
  /// Characters read as a minus sign: `-`, U+2212 minus sign, U+2013 en dash (typesetting's minus where no
  /// minus glyph exists).
  static let minusSigns: Set<Unicode.Scalar> = ["-", "\u{2212}", "\u{2013}"]

  static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

  /// Takes a cell apart.
  ///
  /// - Parameter text: the cell's text without surrounding whitespace.
  /// - Returns: the parts, or why the text is not an amount.
  static func split(_ text: String) -> Result<AmountCell, AmountParser.Problem> {
    let scalars = Array(text.unicodeScalars)
    guard let firstDigit = scalars.firstIndex(where: isDigit), let lastDigit = scalars.lastIndex(where: isDigit) else {
      return .failure(.notANumber)
    }
    var start = firstDigit
    if start > 0, scalars[start - 1] == "." || scalars[start - 1] == ",",
      start == 1 || !scalars[start - 2].properties.isAlphabetic
    {
      start -= 1  // `.5`, `$.50`; but `Rs.500` is the symbol `Rs.` and 500
    }
    var end = lastDigit + 1
    if end < scalars.count, scalars[end] == "." || scalars[end] == "," {
      // `12.` is 12; `5,-` is the German "5, no cents", never minus five
      if end + 1 < scalars.count, minusSigns.contains(scalars[end + 1]) { return .failure(.notANumber) }
      if end + 1 == scalars.count || !scalars[end + 1].properties.isAlphabetic { end += 1 }
    }
    let number = Array(scalars[start..<end])
    guard number.allSatisfy({ isDigit($0) || separators.contains($0) }) else { return .failure(.notANumber) }

    var signs = 0
    var isNegative = false
    var opening = 0
    var closing = 0
    var marks: [String] = []
    for (part, isPrefix) in [(scalars[..<start], true), (scalars[end...], false)] {
      var index = part.startIndex
      while index < part.endIndex {
        let scalar = part[index]
        index += 1
        if scalar.properties.isWhitespace { continue }
        if minusSigns.contains(scalar) || (scalar == "+" && isPrefix) {
          signs += 1
          isNegative = scalar != "+"
        } else if scalar == "(" && isPrefix {
          opening += 1
        } else if scalar == ")" && !isPrefix {
          closing += 1
        } else if scalar == "(" || scalar == ")" {
          return .failure(.unmatchedParenthesis)
        } else if scalar == "+" {
          return .failure(.notANumber)  // a trailing plus is no convention
        } else {
          var mark = String(scalar)
          while index < part.endIndex, !isBoundary(part[index]) {
            mark.unicodeScalars.append(part[index])
            index += 1
          }
          marks.append(mark)
        }
      }
    }
    guard opening == closing, opening <= 1 else { return .failure(.unmatchedParenthesis) }
    guard signs + opening <= 1 else { return .failure(.twoSigns) }
    guard marks.count <= 1 else { return .failure(.twoCurrencyMarks) }
    return .success(AmountCell(isNegative: isNegative || opening == 1, currencyMark: marks.first, number: number))
  }

  /// Whether a character ends a currency mark: whitespace, a sign or a parenthesis.
  private static func isBoundary(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || minusSigns.contains(scalar) || scalar == "+" || scalar == "(" || scalar == ")"
  }
}
