import CLibXML2

/// Which cell styles of a workbook show their number as a date: a cell's `s` is an index into the styles part's
/// `<cellXfs>`, each of which names a number format, built in by its id or custom in `<numFmts>`.
public struct XLSXStyles: Equatable, Sendable {
  /// The indexes of the cell styles whose number format is a date (or a date and time).
  public let dateStyles: Set<Int>

  public init(dateStyles: Set<Int>) { self.dateStyles = dateStyles }

  /// Reads a workbook's styles part.
  ///
  /// - Throws: ``WorkbookError``.
  public static func read(from package: ZipPackage, entry: ZipEntry) throws(WorkbookError) -> XLSXStyles {
    let part = try PackagePartReader(package: package, entry: entry)
    var customFormats: [Int: String] = [:]
    var formats: [Int] = []
    while try part.read() {
      if part.isElement(XML_READER_TYPE_ELEMENT, named: "numFmt"), let id = part.attribute("numFmtId").flatMap({ Int($0) }) {
        customFormats[id] = part.attribute("formatCode") ?? ""
      } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "cellXfs") {
        try part.forEachNodeInside { () throws(WorkbookError) in
          guard part.isElement(XML_READER_TYPE_ELEMENT, named: "xf") else { return }
          formats.append(part.attribute("numFmtId").flatMap { Int($0) } ?? 0)
          _ = try part.elementText()
        }
      }
    }
    var dateStyles: Set<Int> = []
    for (index, format) in formats.enumerated() {
      let isDate = customFormats[format].map(isDateFormat(code:)) ?? builtInDateFormats.contains(format)
      if isDate { dateStyles.insert(index) }
    }
    return XLSXStyles(dateStyles: dateStyles)
  }

  /// The built-in number formats that are dates or dates and times (ECMA-376 part 1, 18.8.30): 14 to 17
  /// (`mm-dd-yy`, `d-mmm-yy`, `d-mmm`, `mmm-yy`) and 22 (`m/d/yy h:mm`). 18 to 21 and 45 to 47 are times of day
  /// only, which are not dates; 27 to 36 and 50 to 58 depend on an East Asian locale and are not read as dates.
  static let builtInDateFormats: Set<Int> = [14, 15, 16, 17, 22]

  /// Whether a custom number format shows a date: its first section has a day (`d`), a year (`y`), or a month
  /// (`m` in a format without hours or seconds, where `m` would be minutes), outside quoted text (`"…"`),
  /// escaped characters (`\x`), spacing and fill characters (`_x`, `*x`) and brackets (`[Red]`, `[$-409]`;
  /// `[h]`, an elapsed time, makes its `m` minutes).
  static func isDateFormat(code: String) -> Bool {
    var letters: Set<Character> = []
    var characters = code.makeIterator()
    while let character = characters.next() {
      switch character {
      case ";": return isDate(letters)
      case "\"": while let next = characters.next(), next != "\"" {}
      case "\\", "_", "*": _ = characters.next()
      case "[":
        var bracket = ""
        while let next = characters.next(), next != "]" { bracket.append(next) }
        // An elapsed time, `[h]:mm`: its `m` is minutes.
        if !bracket.isEmpty, bracket.lowercased().allSatisfy({ "hms".contains($0) }) { letters.insert("h") }
      default: letters.insert(Character(character.lowercased()))
      }
    }
    return isDate(letters)
  }

  private static func isDate(_ letters: Set<Character>) -> Bool {
    letters.contains("d") || letters.contains("y") || (letters.contains("m") && !letters.contains("h") && !letters.contains("s"))
  }
}

/// The two ways workbooks count days (ECMA-376 part 1, 18.17.4.1): a date cell holds the days since the system's
/// start as a number, the fraction being the time of day.
public enum XLSXDateSystem: Sendable, Equatable {
  /// Serial 1 is 1900-01-01, and serial 60 the 1900-02-29 that Lotus 1-2-3 counted and Excel keeps for
  /// compatibility: serials from 61 on are the days since 1899-12-30.
  case from1900
  /// Serial 0 is 1904-01-01 (Excel for Mac before 2011, `date1904`).
  case from1904

  /// The day of a date cell's number (its decimal text), the time of day dropped; `nil` for a number that is not
  /// a day of this system: negative, in exponent form, 0 or 60 in the 1900 system (the days 1900-01-00 and
  /// 1900-02-29 Excel shows, which do not exist), or past 9999-12-31.
  public func day(ofSerial text: String) -> CalendarDay? {
    // Digits, then optionally a point and more digits (read on bytes: every cell of a date column comes here).
    var serial = 0
    var digits = 0
    var fractionDigits: Int? = nil
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if let count = fractionDigits {
          fractionDigits = count + 1
        } else {
          digits += 1
          guard digits <= 7 else { return nil }
          serial = serial * 10 + Int(byte - UInt8(ascii: "0"))
        }
      case UInt8(ascii: ".") where fractionDigits == nil: fractionDigits = 0
      default: return nil
      }
    }
    guard digits > 0, fractionDigits != 0 else { return nil }
    let day: CalendarDay?
    switch self {
    case .from1900:
      guard serial != 0, serial != 60 else { return nil }
      day = CalendarDay(year: 1899, month: 12, day: serial < 60 ? 31 : 30)?.adding(days: serial)
    case .from1904:
      day = CalendarDay(year: 1904, month: 1, day: 1)?.adding(days: serial)
    }
    guard let day, let last = CalendarDay(year: 9999, month: 12, day: 31), !(last < day) else { return nil }
    return day
  }

  /// The serial number of a day, the inverse of ``day(ofSerial:)``; `nil` before 1900-03-01 in the 1900 system
  /// (whose serials there count the day that never was) and before 1904-01-01 in the 1904 system.
  public func serial(of day: CalendarDay) -> Int? {
    switch self {
    case .from1900:
      guard let start = CalendarDay(year: 1900, month: 3, day: 1), !(day < start),
        let origin = CalendarDay(year: 1899, month: 12, day: 30)
      else { return nil }
      return day.days(since: origin)
    case .from1904:
      guard let origin = CalendarDay(year: 1904, month: 1, day: 1), !(day < origin) else { return nil }
      return day.days(since: origin)
    }
  }
}
