import Foundation
import Testing

/// The folders of `Sources/FXBatch/` are layered one way (docs/development.md): a file uses the types of
/// its own folder and of the folders below it, never a type declared in a folder above it. Within `Formats/`,
/// each format folder (`Formats/CSV`, `Formats/JSON`, …) is a room: it uses its own types, the shared readers
/// of `Formats/Shared/` and the layers below, never another format folder's types; only the files of `Formats/`
/// itself (the registry) name a format folder's types, no other file does. `Pipeline/` names no format: no
/// format folder's types, and none of the names format folders add to the types below them (`RecordFormat.csv`,
/// `FileScan.csv`, `BatchOptions.delimiter`, …); neither do `Formats/BatchOptions.swift` and the settings store
/// it keeps the options of formats in (``formatNeutralFiles``): a format's options live in its folder.
///
/// Swift has no folder-level visibility, so the test reads the sources: it finds the types each folder
/// declares at the top level of its files (`struct`, `enum`, `class`, `protocol`, `actor`, `typealias`; nested
/// types are reached through their outer type), drops comments and the text of string literals (keeping the
/// code of their interpolations), and looks for every whole identifier that names a type of a higher folder.
@Suite("Layering")
struct LayeringTests {
  /// The folders of `Sources/FXBatch/`, bottom to top. `Formats` is one level with its subfolders, whose format
  /// folders are checked against each other by ``roomViolations(in:)``.
  static let layers = [
    "Bytes",  // unsafe byte helpers, file bytes, output sink, atomic files
    "Compression",  // gzip, zstd, xz and bzip2 through their libraries: compressed input read, output written
    "Money",  // exact decimals, currency codes, ISO 4217, rounding, totals
    "Records",  // record fields, cells (amounts, currencies, dates), calendar days, rate keys, row errors
    "Rates",  // rate table, quotes, currency lifecycle and routes
    "Fetching",  // rate provider protocol, planner, fetcher, transport, cache
    "Conversion",  // the converter, quote book, reconciliation, annotation columns and templates
    "Output",  // the run report
    "Zip",  // zip packages through libzip: entries as streams within limits, hostile packages refused, writing
    "Engine",  // the per-record fast loop every format's reader feeds (FastRecordLoop, FastRecordReader)
    "Formats",  // FileFormat, the registry, one folder per format, the readers they share (Shared/)
    "RepairedJSON",  // the lenient JSON parser
    "RateSources",  // the source registry, ECB history and feed, Frankfurter, calculator, rates files, lock files
    "Pipeline",  // the job, parts, run summary
  ]

  /// `Sources/FXBatch/`, found from this file's path.
  static let sourcesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Sources/FXBatch")

  @Test func noFileUsesATypeOfAHigherFolder() throws {
    let violations = Self.violations(in: try Self.sources())
    #expect(
      violations.isEmpty,
      """
      Sources/FXBatch/ files use types of folders above their own (order, bottom to top: \
      \(Self.layers.joined(separator: " → "))):
      \(violations.joined(separator: "\n"))
      """)
  }

  @Test func formatFoldersAreRooms() throws {
    let violations = Self.roomViolations(in: try Self.sources())
    #expect(
      violations.isEmpty,
      """
      files use types of format folders not their own (a format uses its own types, Formats/Shared/ and the \
      layers below, and only the registry names a format; a reader two formats or a layer need goes to \
      Formats/Shared/):
      \(violations.joined(separator: "\n"))
      """)
  }

  @Test func pipelineNamesNoFormat() throws {
    let violations = Self.formatNamesInPipeline(of: try Self.sources())
    #expect(
      violations.isEmpty,
      """
      Pipeline/ (or \(Self.formatNeutralFiles.sorted().joined(separator: ", "))) names formats (what differs \
      between formats is declared on their FileFormat types, and their options in their folders):
      \(violations.joined(separator: "\n"))
      """)
  }

  @Test func everyFolderHasALayer() throws {
    let folders = Set(try Self.sources().map { Self.folder(of: $0.path) })
    #expect(folders.subtracting(Self.layers).isEmpty, "folders missing from LayeringTests.layers")
    #expect(Set(Self.layers).subtracting(folders).isEmpty, "LayeringTests.layers names folders that are gone")
  }

  @Test func anUpwardReferenceIsReported() {
    let sources = [
      (path: "Bytes/ByteThing.swift", text: "struct ByteThing { var total: ExactSum }"),
      (path: "Money/ExactSum.swift", text: "/// Uses ``ByteThing``.\nstruct ExactSum { let bytes: ByteThing }"),
      (path: "Formats/CSV/CSVThing.swift", text: "enum CSVThing { static let job = Job.self }"),
      (path: "Pipeline/Job.swift", text: "final class Job {}"),
      (path: "Conversion/Step.swift", text: "struct Step { let thing = CSVThing.self }"),
    ]
    #expect(
      Self.violations(in: sources) == [
        "Bytes/ByteThing.swift: uses ExactSum from Money",
        "Conversion/Step.swift: uses CSVThing from Formats",
        "Formats/CSV/CSVThing.swift: uses Job from Pipeline",
      ])
  }

  @Test func aReferenceToAnotherFormatFolderIsReported() {
    let sources = [
      (path: "Formats/CSV/CSVThing.swift", text: "struct CSVThing { let shared: SharedThing; let other: XMLThing }"),
      (path: "Formats/Shared/Text/SharedThing.swift", text: "struct SharedThing { let csv: CSVThing }"),
      (path: "Formats/XML/XMLThing.swift", text: "/// Not ``CSVThing``.\nstruct XMLThing { let x = \"CSVThing\" }"),
      (path: "Formats/XML/XMLOther.swift", text: "enum XMLOther { static let decoder = CSVFieldDecoder.self }"),
      (path: "Formats/CSV/CSVFieldDecoder.swift", text: "struct CSVFieldDecoder {}"),
      (path: "Formats/FormatRegistry.swift", text: "enum FormatRegistry { static let all = [CSVThing.self] }"),
      (path: "RateSources/RatesThing.swift", text: "struct RatesThing { let reader: SharedThing; let csv: CSVThing }"),
    ]
    #expect(
      Self.roomViolations(in: sources) == [
        "Formats/CSV/CSVThing.swift: uses XMLThing from Formats/XML",
        "Formats/Shared/Text/SharedThing.swift: uses CSVThing from Formats/CSV",
        "Formats/XML/XMLOther.swift: uses CSVFieldDecoder from Formats/CSV",
        "RateSources/RatesThing.swift: uses CSVThing from Formats/CSV",
      ])
  }

  @Test func aFormatNamedInThePipelineIsReported() {
    let sources = [
      (path: "Formats/RecordFormat.swift", text: "struct RecordFormat {}\nstruct FileScan {}"),
      (path: "Formats/CSV/CSVFormat.swift", text: "extension RecordFormat { static let csv = RecordFormat() }"),
      (
        path: "Formats/CSV/CSVDetails.swift",
        text: "struct CSVDetails {}\nextension FileScan { var csv: CSVDetails { .init() } }"
      ),
      (path: "Formats/Shared/Text/TextReader.swift", text: "struct TextReader {}"),
      (path: "Pipeline/Job.swift", text: "let a = format == .csv\nlet b = scan.csv.x\nlet c = TextReader()"),
      (path: "Pipeline/Plan.swift", text: "let d: CSVDetails? = nil // .csv\nlet e = \"out.csv\"\nlet f = format.isWorkbook"),
      (path: "Formats/Options.swift", text: "struct Options { var settings = 0; static let header = 1 }"),
      (path: "Formats/CSV/CSVOptions.swift", text: "struct CSVOptions {}\nextension Options { var delimiter: Int { 0 } }"),
      (path: "Formats/CSV/CSVHeader.swift", text: "extension Options { var header: Int { 0 } }"),
      (path: "Pipeline/Read.swift", text: "let g = options.settings + options.header\nlet h = options.delimiter"),
      (path: "Formats/BatchOptions.swift", text: "struct BatchOptions { var given = CSVOptions() }"),
    ]
    #expect(
      Self.formatNamesInPipeline(of: sources) == [
        "Formats/BatchOptions.swift: uses CSVOptions from Formats/CSV",
        "Pipeline/Job.swift: names csv, which Formats/CSV adds to a type below it",
        "Pipeline/Plan.swift: uses CSVDetails from Formats/CSV",
        "Pipeline/Plan.swift: names isWorkbook",
        "Pipeline/Read.swift: names delimiter, which Formats/CSV adds to a type below it",
      ])
  }

  @Test func commentsAndLiteralTextAreNotCode() {
    let source = ##"""
      /* ExactDecimal /* nested */ RunReport */ let a = "RunReport \(ExactDecimal.zero) \"RateTable"
      // BatchJob
      let b = #"CSVReader "\(x)" \#(JSONValue.null)"#
      let c = """
        FetchError \("\(RowError.self)")
        """
      let d = 0xE5 + Fetching_1
      """##
    #expect(Self.identifiers(in: Self.code(of: source)) == ["ExactDecimal", "JSONValue", "RowError", "Fetching_1"])
  }

  // MARK: The checker

  /// Every `.swift` file under `Sources/FXBatch/`: its path below that folder and its text.
  static func sources() throws -> [(path: String, text: String)] {
    let root = sourcesDirectory.standardizedFileURL.path + "/"
    let enumerator = try #require(FileManager.default.enumerator(at: sourcesDirectory, includingPropertiesForKeys: nil))
    var sources: [(path: String, text: String)] = []
    for case let url as URL in enumerator where url.pathExtension == "swift" {
      let path = String(url.standardizedFileURL.path.dropFirst(root.count))
      sources.append((path, try String(contentsOf: url, encoding: .utf8)))
    }
    #expect(sources.count > 100, "the sources are not at \(sourcesDirectory.path)")
    return sources.sorted { $0.path < $1.path }
  }

  /// A file's layer: the first folder of its path below `Sources/FXBatch/`.
  static func folder(of path: String) -> String {
    String(path.split(separator: "/").first!)
  }

  /// The references to types of higher folders, `path: uses Name from Folder`, in path order.
  static func violations(in sources: [(path: String, text: String)]) -> [String] {
    let code = sources.map { (path: $0.path, code: Self.code(of: $0.text)) }
    var owners: [String: Set<String>] = [:]
    for file in code {
      for name in topLevelTypes(in: file.code) { owners[name, default: []].insert(folder(of: file.path)) }
    }
    // A name declared in two folders is ambiguous here; the compiler keeps the module's top-level names unique.
    let owner = owners.compactMapValues { $0.count == 1 ? $0.first : nil }
    let level = Dictionary(uniqueKeysWithValues: layers.enumerated().map { ($0.element, $0.offset) })
    var violations: [String] = []
    for file in code.sorted(by: { $0.path < $1.path }) {
      let from = folder(of: file.path)
      var seen: Set<String> = []
      for name in identifiers(in: file.code) where seen.insert(name).inserted {
        guard let to = owner[name], to != from else { continue }
        if level[to, default: Int.max] > level[from, default: Int.max] {
          violations.append("\(file.path): uses \(name) from \(to)")
        }
      }
    }
    return violations
  }

  /// The files of `Formats/` that, as `Pipeline/`, name no format: the run's options hold the values of the
  /// options only some formats take without naming them (each format declares its own, `CSVOptions`).
  static let formatNeutralFiles: Set<String> = ["Formats/BatchOptions.swift", "Formats/FormatSettings.swift"]

  /// Names `Pipeline/` never uses, whoever declares them.
  static let formatWords: Set<String> = ["isWorkbook"]

  /// A file's room under `Formats/`: its format folder (`Formats/CSV`), or `Formats/Shared` for the shared
  /// readers; `nil` for the files of `Formats/` itself (the protocol, the registry, …) and the other layers.
  static func room(of path: String) -> String? {
    let parts = path.split(separator: "/")
    guard parts.count > 2, parts[0] == "Formats" else { return nil }
    return "Formats/\(parts[1])"
  }

  /// Whether a room is a format's folder (not the shared one).
  static func isFormatFolder(_ room: String?) -> Bool {
    guard let room else { return false }
    return room.hasPrefix("Formats/") && room != "Formats/Shared"
  }

  /// The types each format folder declares: name → folder (a name declared in two folders is left out).
  static func formatFolderTypes(in code: [(path: String, code: String)]) -> [String: String] {
    var owners: [String: Set<String>] = [:]
    for file in code {
      for name in topLevelTypes(in: file.code) { owners[name, default: []].insert(room(of: file.path) ?? folder(of: file.path)) }
    }
    return owners.compactMapValues { $0.count == 1 ? $0.first : nil }.filter { isFormatFolder($0.value) }
  }

  /// The references to a format folder's types from outside it, `path: uses Name from Formats/X`, in path order;
  /// the files of `Formats/` itself (the registry, `FormatRegistry.formats`) may name them.
  static func roomViolations(in sources: [(path: String, text: String)]) -> [String] {
    let code = sources.map { (path: $0.path, code: Self.code(of: $0.text)) }.sorted { $0.path < $1.path }
    let owner = formatFolderTypes(in: code)
    var violations: [String] = []
    for file in code {
      let from = room(of: file.path) ?? folder(of: file.path)
      if from == "Formats" { continue }
      var seen: Set<String> = []
      for name in identifiers(in: file.code) where seen.insert(name).inserted {
        if let to = owner[name], to != from { violations.append("\(file.path): uses \(name) from \(to)") }
      }
    }
    return violations
  }

  /// What `Pipeline/` files say of formats: a format folder's type, a name a format folder adds to a type below
  /// it (`.csv` of `RecordFormat`, `scan.csv` of `FileScan`), or one of ``formatWords``.
  static func formatNamesInPipeline(of sources: [(path: String, text: String)]) -> [String] {
    let code = sources.map { (path: $0.path, code: Self.code(of: $0.text)) }.sorted { $0.path < $1.path }
    let owner = formatFolderTypes(in: code)
    // The types `Formats/` itself declares (RecordFormat, FileScan, …), which carry a file from layer to layer,
    // and the members format folders add to them.
    let formatsFiles = code.filter { $0.path.split(separator: "/").count == 2 && folder(of: $0.path) == "Formats" }
    let carriers = Set(formatsFiles.flatMap { topLevelTypes(in: $0.code) })
    var added: [String: String] = [:]
    for file in code {
      guard let room = room(of: file.path), isFormatFolder(room) else { continue }
      for name in addedMembers(in: file.code, extending: carriers) { added[name] = room }
    }
    // A name `Formats/` declares on its own types too (`FormatOptions.header`, `FileScan.encoding`) is ambiguous
    // here, as a type declared in two folders is.
    for file in formatsFiles {
      for name in addedMembers(in: file.code, extending: carriers, declaredBy: ["extension", "struct", "enum", "class"]) {
        added[name] = nil
      }
    }
    var violations: [String] = []
    for file in code where folder(of: file.path) == "Pipeline" || formatNeutralFiles.contains(file.path) {
      var seen: Set<String> = []
      for name in identifiers(in: file.code) where seen.insert(name).inserted {
        if let from = owner[name] { violations.append("\(file.path): uses \(name) from \(from)") }
      }
      var named: Set<String> = []
      for name in tokens(in: file.code) where formatWords.contains(name) && named.insert(name).inserted {
        violations.append("\(file.path): names \(name)")
      }
      for name in memberNames(in: file.code) where seen.insert("." + name).inserted {
        if let room = added[name] { violations.append("\(file.path): names \(name), which \(room) adds to a type below it") }
      }
    }
    return violations
  }

  /// The names after a `.` in a file's code (`format == .csv`, `scan.csv`), in order.
  static func memberNames(in code: String) -> [String] {
    let scalars = Array(code.unicodeScalars)
    var names: [String] = []
    var index = 0
    while index < scalars.count {
      defer { index += 1 }
      guard scalars[index] == "." else { continue }
      var start = index + 1
      while start < scalars.count, scalars[start] == " " || scalars[start] == "\n" { start += 1 }
      var end = start
      while end < scalars.count, Character(scalars[end]).isLetter || Character(scalars[end]).isNumber || scalars[end] == "_" {
        end += 1
      }
      if end > start, !Character(scalars[start]).isNumber {
        names.append(String(String.UnicodeScalarView(scalars[start..<end])))
      }
    }
    return names
  }

  /// The members (`let`, `var`, `func`, `case`) a file declares directly inside its top-level extensions of
  /// `types` (`extension RecordFormat { static let csv … }`).
  /// - Parameter declaredBy: the keywords that open a body whose members count: `extension` (members added to
  ///   a type), or also `struct`, `enum`, `class` (members a type declares).
  static func addedMembers(
    in code: String, extending types: Set<String>, declaredBy keywords: Set<String> = ["extension"]
  ) -> [String] {
    var names: [String] = []
    var depth = 0
    var extended: String? = nil
    var previous = ""
    var afterExtension = false
    for token in tokens(in: code) {
      switch token {
      case "{": depth += 1
      case "}":
        depth -= 1
        if depth == 0 { extended = nil }
      default:
        if depth == 0, afterExtension { extended = types.contains(token) ? token : nil }
        if depth == 1, extended != nil, ["let", "var", "func", "case"].contains(previous) { names.append(token) }
      }
      afterExtension = depth == 0 && keywords.contains(token)
      previous = token
    }
    return names
  }

  /// The types declared at the top level of a file's code (outside every brace).
  static func topLevelTypes(in code: String) -> [String] {
    let keywords: Set<String> = ["struct", "enum", "class", "protocol", "actor", "typealias"]
    var names: [String] = []
    var depth = 0
    var previous = ""
    for token in tokens(in: code) {
      switch token {
      case "{": depth += 1
      case "}": depth -= 1
      default:
        if depth == 0, keywords.contains(previous), token.first!.isUppercase { names.append(token) }
      }
      previous = token
    }
    return names
  }

  /// The identifiers that may name a type (capitalised), in order of appearance.
  static func identifiers(in code: String) -> [String] {
    tokens(in: code).filter { $0.first!.isUppercase }
  }

  /// The identifiers (runs of letters, digits and `_` not starting with a digit) and braces of a file's code.
  static func tokens(in code: String) -> [String] {
    var tokens: [String] = []
    var word = ""
    for character in code + " " {
      if character.isLetter || character.isNumber || character == "_" {
        word.append(character)
        continue
      }
      if let first = word.first, !first.isNumber { tokens.append(word) }
      word = ""
      if character == "{" || character == "}" { tokens.append(String(character)) }
    }
    return tokens
  }

  /// A file's code: comments and the text of string literals become spaces; the code of interpolations stays.
  static func code(of text: String) -> String {
    var scanner = CodeScanner(text: Array(text.unicodeScalars))
    scanner.scanCode(untilClosingParenthesis: false)
    return String(String.UnicodeScalarView(scanner.code))
  }

  /// Copies code and skips comments and literal text, one Unicode scalar at a time.
  struct CodeScanner {
    let text: [Unicode.Scalar]
    var index = 0
    var code: [Unicode.Scalar] = []

    init(text: [Unicode.Scalar]) { self.text = text }

    /// Whether `string` is at `offset`.
    func has(_ string: String, at offset: Int) -> Bool {
      var at = offset
      for scalar in string.unicodeScalars {
        guard at < text.count, text[at] == scalar else { return false }
        at += 1
      }
      return true
    }

    /// How many `#` are at `offset`.
    func hashes(at offset: Int) -> Int {
      var at = offset
      while at < text.count, text[at] == "#" { at += 1 }
      return at - offset
    }

    /// Copies code up to the end of the text, or past the `)` that closes an interpolation.
    mutating func scanCode(untilClosingParenthesis: Bool) {
      var depth = 0
      while index < text.count {
        if has("//", at: index) {
          while index < text.count, text[index] != "\n" { index += 1 }
        } else if has("/*", at: index) {
          skipBlockComment()
        } else if text[index] == "#" || text[index] == "\"", has("\"", at: index + hashes(at: index)) {
          skipString(hashes: hashes(at: index))
        } else {
          if text[index] == "(" { depth += 1 }
          if text[index] == ")" {
            if untilClosingParenthesis, depth == 0 {
              index += 1
              code.append(" ")
              return
            }
            depth -= 1
          }
          code.append(text[index])
          index += 1
        }
      }
    }

    /// Skips a block comment at the index, nested ones included.
    mutating func skipBlockComment() {
      var depth = 0
      repeat {
        if has("/*", at: index) {
          depth += 1
          index += 2
        } else if has("*/", at: index) {
          depth -= 1
          index += 2
        } else {
          index += 1
        }
      } while depth > 0 && index < text.count
      code.append(" ")
    }

    /// Skips a string literal at the index (`hashes` `#` before its quote), scanning its interpolations as code.
    mutating func skipString(hashes: Int) {
      let delimiter = has("\"\"\"", at: index + hashes) ? "\"\"\"" : "\""
      let closing = delimiter + String(repeating: "#", count: hashes)
      let escape = "\\" + String(repeating: "#", count: hashes)
      index += hashes + delimiter.unicodeScalars.count
      code.append(" ")
      while index < text.count {
        if has(closing, at: index) {
          index += closing.unicodeScalars.count
          break
        }
        if has(escape, at: index) {
          index += escape.unicodeScalars.count
          if index < text.count, text[index] == "(" {
            index += 1
            scanCode(untilClosingParenthesis: true)
            continue
          }
        }
        index += 1
      }
      code.append(" ")
    }
  }
}
