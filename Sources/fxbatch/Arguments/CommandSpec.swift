/// The headings options are listed under, in this order, in `--help` and the man page: the essentials first.
enum OptionGroup: CaseIterable {
  case essential, input, rates, fetching, output, general

  var title: String {
    switch self {
    case .essential: "OPTIONS"
    case .input: "INPUT OPTIONS"
    case .rates: "RATES OPTIONS"
    case .fetching: "FETCHING OPTIONS"
    case .output: "OUTPUT OPTIONS"
    case .general: "OTHER OPTIONS"
    }
  }
}

/// What a shell completes for an option's value or a command's arguments.
enum ValueCompletion: Equatable {
  case none
  case file
  case directory
  case words([String])
}

/// One command (`convert`, `rates show`, …): the single definition its `--help`, its parser's options, the man
/// page and the shell completions are all made from.
struct CommandSpec {
  /// The words after `fxbatch`, e.g. `rates show`.
  let name: String
  /// What follows the name in the usage line, e.g. `[options] [FILE...]`.
  let arguments: String
  /// One line for the command list.
  let summary: String
  /// Paragraphs for `--help` and the man page (lines joined with spaces in the man page).
  let description: String
  let options: [OptionSpec]
  /// `(comment, command line)` pairs.
  let examples: [(comment: String, command: String)]
  /// Text after the examples (exit status).
  var footer = ""
  /// What shells complete for the positional arguments.
  var argumentCompletion = ValueCompletion.none

  var usage: String { "fxbatch \(name) \(arguments)" }

  /// The `--help` text: usage, description, options by group (the essentials first), examples, footer.
  var help: String {
    var lines = ["USAGE: \(usage)", "", description]
    let labels = options.map(\.label)
    let width = min((labels.map(\.count).max() ?? 0) + 2, 34)
    let indent = String(repeating: " ", count: width + 2)
    for group in OptionGroup.allCases {
      let members = zip(labels, options).filter { $0.1.group == group }
      guard !members.isEmpty else { continue }
      lines += ["", "\(group.title):"]
      for (label, spec) in members {
        let padded = label.count < width ? label + String(repeating: " ", count: width - label.count) : label + "\n" + indent
        lines.append("  " + padded + spec.help.replacingOccurrences(of: "\n", with: "\n" + indent))
      }
    }
    if !examples.isEmpty {
      lines += ["", "EXAMPLES:"]
      for (index, example) in examples.enumerated() {
        if index > 0 { lines.append("") }
        lines += ["  # \(example.comment)", "  \(example.command)"]
      }
    }
    if !footer.isEmpty { lines += ["", footer] }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension OptionSpec {
  /// `-o, --output FILE`
  var label: String { names.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "") }

  /// Help text made from parts (a registry's names), broken into lines of at most `width` characters at spaces.
  static func wrapped(_ text: String, width: Int = 68) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}

/// "did you mean …?" for a misspelled option or command.
enum Suggestion {
  /// The candidate the user most likely meant by `typed`, or `nil` when none is close.
  ///
  /// In order: a candidate within a few edits (`--sorce` → `--source`, `conver` → `convert`); a candidate that
  /// `typed` extends with `-…` (`--to-currency` → `--to`, the longest such); the one candidate `typed` abbreviates
  /// (`--so` → `--source`).
  static func closest(to typed: String, among candidates: [String]) -> String? {
    let core = typed.drop { $0 == "-" }
    if core.count >= 3 {
      let limit = min(3, (core.count + 2) / 3)
      var best: (distance: Int, name: String)? = nil
      for candidate in candidates {
        let distance = editDistance(typed.lowercased(), candidate.lowercased())
        if distance <= limit, distance < (best?.distance ?? .max) { best = (distance, candidate) }
      }
      if let best { return best.name }
    }
    let extended = candidates.filter { candidate in
      candidate.count > 2 && typed.hasPrefix(candidate + "-")
    }
    if let longest = extended.max(by: { $0.count < $1.count }) { return longest }
    if core.count >= 2 {
      let abbreviated = candidates.filter { $0.hasPrefix(typed) }
      if abbreviated.count == 1 { return abbreviated[0] }
    }
    return nil
  }

  /// The edit distance over characters counting a swap of two adjacent characters as one edit (optimal string
  /// alignment), so that `--fromat` is nearer `--format` than `--from`.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    var beforePrevious: [Int] = []
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      beforePrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
