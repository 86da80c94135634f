import FXBatchTestSupport
import Foundation
import Testing

/// README.md and the reference under `docs/` stay true: the worked examples of README's "Convert your own file"
/// print what README shows, and every relative link of the documentation leads to a file and heading that exist.
@Suite struct DocumentationTests {
  let cli: CLIRunner
  init() throws { cli = try CLIRunner() }

  /// The repository's root (this file is `Tests/FXBatchTests/DocumentationTests.swift`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The pages whose links are checked: README.md, every page directly under `docs/`, the benchmark results.
  static func documentationPages() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return ["README.md", "Benchmarks/RESULTS.md"] + docs
  }

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// One `$ command` line of a console block and the output lines README shows under it.
  struct ShownCommand {
    let words: [String]
    var shown: [String] = []
  }

  /// The `$ ` lines of README's `console` blocks and the lines under each, up to the next `$ ` or the block's end.
  static func shownCommands(in readme: String) -> [ShownCommand] {
    var commands: [ShownCommand] = []
    var inConsole = false
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        inConsole = !inConsole && line == "```console"
      } else if inConsole, line.hasPrefix("$ ") {
        commands.append(ShownCommand(words: line.dropFirst(2).split(separator: " ").map(String.init)))
      } else if inConsole, !commands.isEmpty {
        commands[commands.count - 1].shown.append(line)
      }
    }
    return commands
  }

  /// Whether `actual` is what README shows: the same lines, or, when the shown lines end with `…`, the same first
  /// lines (the rest of a summary names today's date, which README cannot show).
  static func matches(_ shown: [String], _ actual: String) -> Bool {
    var lines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    if shown.last == "…" {
      let prefix = shown.dropLast()
      return lines.count > prefix.count && Array(lines.prefix(prefix.count)) == Array(prefix)
    }
    return lines == shown
  }

  /// The five worked examples run from a copy of `Examples/` and print, and write, what README shows.
  @Test func readmeExamplesRunAsShown() throws {
    let readme = try Self.text("README.md")
    let commands = Self.shownCommands(in: readme)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let examples = directory.url.appendingPathComponent("Examples")
    try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Examples"), to: examples)
    var conversions = 0
    var files = 0
    for command in commands {
      let actual: String
      switch command.words.first {
      case "fxbatch":
        let result = try cli.run(Array(command.words.dropFirst()), in: directory.url)
        #expect(result.status == 0, "\(command.words.joined(separator: " ")): \(result.standardError)")
        actual = result.standardOutput + result.standardError
        conversions += 1
      case "cat":
        let path = try #require(command.words.dropFirst().first)
        actual = try directory.read(path)
        files += 1
      default:
        Issue.record("README shows a command the test cannot run: \(command.words.joined(separator: " "))")
        continue
      }
      #expect(
        Self.matches(command.shown, actual),
        "README shows for \(command.words.joined(separator: " ")):\n\(command.shown.joined(separator: "\n"))\nbut it printed:\n\(actual)"
      )
    }
    #expect(conversions == 5)
    #expect(files >= 5)
    // By hand, from the ECB reference rates of each day (embedded history):
    // -1234.50 USD ÷ 1.0956 (EUR/USD 2024-01-02) = -1126.7798… → -1126.78 EUR
    #expect(readme.contains("02.01.2024;Hosting invoice 2024-01;-1.234,50;USD;0.9127418766;-1126.78;EUR;2024-01-02;"))
    // 4800 GBP ÷ 0.8541 (EUR/GBP 2024-03-15) = 5619.9508… → 5619.95 EUR
    #expect(readme.contains(";4.800,00;GBP;1.170823089;5619.95;EUR;2024-03-15;"))
    // -58.40 CHF ÷ 0.9766 (EUR/CHF 2024-03-28, Thursday before Good Friday and Saturday 2024-03-30) = -59.799… → -59.80
    #expect(readme.contains(";-58,40;CHF;1.02396068;-59.80;EUR;2024-03-28;ecb-embedded EUR/CHF=0.9766;fallback;"))
    // 129.90 GBP ÷ 0.85175 (EUR/GBP 2024-06-03) = 152.5095… → 152.51 EUR
    #expect(readme.contains(#""fx_converted": "152.51", "fx_currency": "EUR", "fx_rate_date": "2024-06-03""#))
    // 180000 JPY ÷ 162.85 × 1.0903 (EUR/JPY, EUR/USD 2024-10-15) = 1205.1206… → 1205.12 USD
    #expect(readme.contains(#"converted="1205.12" currency="USD" rate-date="2024-10-15""#))
    // Stripe's amount, fee and net, each at the record's one rate:
    // 1250, 67, 1183 US cents = 12.50, 0.67, 11.83 USD ÷ 1.0814 (EUR/USD 2024-02-01; 1706812800 is 2024-02-01
    // 18:40 UTC) = 11.5590…, 0.6195…, 10.9395… → 11.56, 0.62, 10.94
    #expect(
      readme.contains(
        #""fx_converted_amount": "11.56", "fx_converted_fee": "0.62", "fx_converted_net": "10.94", "fx_currency": "EUR", "fx_rate_date": "2024-02-01""#
      ))
    // 5000, 180, 4820 JPY (no minor unit) ÷ 159.58 (EUR/JPY Friday 2024-02-02; 1706986799 is Saturday 18:59:59
    // UTC) = 31.3322…, 1.1279…, 30.2042… → 31.33, 1.13, 30.20
    #expect(
      readme.contains(
        #""fx_converted_amount": "31.33", "fx_converted_fee": "1.13", "fx_converted_net": "30.20", "fx_currency": "EUR", "fx_rate_date": "2024-02-02""#
      ))
    // -2599, 0, -2599 pence = -25.99, 0, -25.99 GBP ÷ 0.85263 (EUR/GBP 2024-02-02; 1707091199 is Sunday
    // 2024-02-04 23:59:59 UTC) = -30.4821… → -30.48, 0.00, -30.48
    #expect(
      readme.contains(
        #""fx_converted_amount": "-30.48", "fx_converted_fee": "0.00", "fx_converted_net": "-30.48", "fx_currency": "EUR", "fx_rate_date": "2024-02-02""#
      ))
    // Several amounts, each ÷ the record's one rate: 100.00, -3.79, 96.21 USD ÷ 1.0813 (EUR/USD 2024-03-01) =
    // 92.4812…, -3.5050…, 88.9762… → 92.48, -3.51, 88.98; 45.00, -1.65, 43.35 GBP ÷ 0.85583 (2024-03-04) = 52.5805…,
    // -1.9279…, 50.6526… → 52.58, -1.93, 50.65; -20.00, 0.59, -19.41 USD ÷ 1.0849 (2024-03-05) = -18.4348…, 0.5438…,
    // -17.8910… → -18.43, 0.54, -17.89. Fees: rounded -3.51 - 1.93 + 0.54 = -4.90; exact -3.5050… - 1.9279… +
    // 0.5438… = -4.8891… → -4.89.
    #expect(readme.contains(#""5TY05013RG002845M",0.9248127254,92.48,-3.51,88.98,EUR,2024-03-01,"#))
    #expect(readme.contains(#""8AB12345CD678901E",1.168456352,52.58,-1.93,50.65,EUR,2024-03-04,"#))
    #expect(readme.contains(#""2CD98765EF432109G",0.9217439395,-18.43,0.54,-17.89,EUR,2024-03-05,"#))
    #expect(readme.contains("the fees' rounded sum, −4.90, is a cent off their exact sum\nrounded once, −4.89"))
  }

  /// GitHub's anchor of a heading: lower-cased, punctuation other than `-` and `_` removed, spaces made `-`.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
        return nil
      })
  }

  /// The anchors of a Markdown page's headings (outside code blocks), a repeated one numbered as GitHub does.
  static func anchors(of page: String) -> Set<String> {
    var result: Set<String> = []
    var inCode = false
    for line in page.split(separator: "\n").map(String.init) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { continue }
      guard line[..<space].allSatisfy({ $0 == "#" }) else { continue }
      let base = anchor(String(line[line.index(after: space)...]))
      var candidate = base
      var number = 0
      while result.contains(candidate) {
        number += 1
        candidate = "\(base)-\(number)"
      }
      result.insert(candidate)
    }
    return result
  }

  /// The targets of a page's inline links `](target)` outside code blocks and code spans, web addresses left out.
  static func relativeLinks(in page: String) -> [String] {
    var links: [String] = []
    var inCode = false
    for line in page.split(separator: "\n").map(String.init) {
      if line.hasPrefix("```") { inCode.toggle() }
      if inCode { continue }
      let outsideSpans = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined(separator: " ")
      var rest = Substring(outsideSpans)
      while let start = rest.range(of: "](") {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: ")") else { break }
        let target = String(after[..<end])
        if !target.contains("://"), !target.hasPrefix("mailto:") { links.append(target) }
        rest = after[end...]
      }
    }
    return links
  }

  /// A relative path with its `.` and `..` components resolved (`docs/../README.md` is `README.md`).
  static func normalized(_ path: String) -> String {
    var components: [Substring] = []
    for component in path.split(separator: "/") {
      if component == "." { continue }
      if component == "..", let last = components.last, last != ".." {
        components.removeLast()
      } else {
        components.append(component)
      }
    }
    return components.joined(separator: "/")
  }

  /// Every relative link of README.md, `docs/*.md` and `Benchmarks/RESULTS.md` names a file that exists, and its
  /// `#anchor`, if any, a heading of that file.
  @Test func relativeLinksResolve() throws {
    var checked = 0
    for page in try Self.documentationPages() {
      let text = try Self.text(page)
      let folder = (page as NSString).deletingLastPathComponent
      for link in Self.relativeLinks(in: text) {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].isEmpty ? page : Self.normalized(folder.isEmpty ? parts[0] : folder + "/" + parts[0])
        let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path)
        #expect(exists, "\(page): the link \(link) leads to \(target), which does not exist")
        if exists, parts.count == 2 {
          #expect(
            Self.anchors(of: try Self.text(target)).contains(parts[1]),
            "\(page): the link \(link): \(target) has no heading with the anchor #\(parts[1])")
        }
        checked += 1
      }
    }
    #expect(checked > 50)
  }

  /// The anchor rule on headings the pages use (GitHub's anchors, as a browser shows them).
  @Test(arguments: [
    ("Provenance: `--providers`", "provenance---providers"),
    ("Quick start (fresh Debian machine with Swift 6.1 or newer)", "quick-start-fresh-debian-machine-with-swift-61-or-newer"),
    ("Which day's rates", "which-days-rates"),
    ("Workbooks (.xlsx, .ods)", "workbooks-xlsx-ods"),
  ])
  func anchorsAreGitHubs(heading: String, expected: String) {
    #expect(Self.anchor(heading) == expected)
  }
}
