import Foundation
import Testing

/// The folders of `Sources/FXBatch/` are layered one way (docs/development.md): a file uses the types of
/// its own folder and of the folders below it, never a type declared in a folder above it.
///
/// Swift has no folder-level visibility, so the test reads the sources: it finds the types each folder
/// declares at the top level of its files (`struct`, `enum`, `class`, `protocol`, `actor`, `typealias`; nested
/// types are reached through their outer type), drops comments and the text of string literals (keeping the
/// code of their interpolations), and looks for every whole identifier that names a type of a higher folder.
@Suite("Layering")
struct LayeringTests {
  /// The folders of `Sources/FXBatch/`, bottom to top. `Formats` is one level with its subfolders: the format
  /// folders (`Formats/CSV`, `Formats/JSON`, …) may use each other's helpers (JSON Lines reuses the JSON and CSV
  /// field decoders, the JSON array reuses the JSON Lines reader).
  static let layers = [
    "Bytes",  // unsafe byte helpers, file bytes, output sink, atomic files
    "Money",  // exact decimals, currency codes, ISO 4217, rounding, totals
    "Records",  // record fields, cells (amounts, currencies, dates), calendar days, rate keys, row errors
    "Rates",  // rate table, quotes, currency lifecycle and routes
    "Fetching",  // rate provider protocol, planner, fetcher, transport, cache
    "Conversion",  // the converter, quote book, reconciliation, annotation columns and templates
    "Output",  // the run report
    "Zip",  // zip packages through libzip: entries as streams within limits, hostile packages refused, writing
    "Formats",  // FileFormat, the registry, one folder per format
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
