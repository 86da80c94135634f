import Foundation

/// A command-line option a command accepts.
struct OptionSpec {
  /// Spellings, e.g. `["-o", "--output"]`; the last one is the option's key in ``ParsedArguments``.
  let names: [String]
  /// The value's placeholder in help (`FILE`), or `nil` for a flag.
  let valueName: String?
  let help: String
  /// The heading it is listed under in help and the man page.
  var group = OptionGroup.general
  /// What shells complete as its value; `nil`: files for a `FILE`, directories for a `DIR`, else nothing.
  var completion: ValueCompletion? = nil
  /// The subcommands it belongs to, when a command's table serves several (`rates show`, `rates export`);
  /// empty: all of them.
  var subcommands: [String] = []
  /// Whether the option may be given more than once (`--alias A=B --alias C=D`); each value is kept, in order.
  var repeatable = false

  var key: String { names[names.count - 1] }

  /// What shells complete as the option's value.
  var valueCompletion: ValueCompletion {
    if let completion { return completion }
    switch valueName {
    case "FILE": return .file
    case "DIR": return .directory
    default: return .none
    }
  }
}

/// Arguments split into option values, flags and positional arguments.
struct ParsedArguments {
  /// Option key → its values in the order given (one for an option that is not repeatable).
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  /// The value of an option that is not repeatable.
  func value(_ key: String) -> String? { values[key]?.last }
  /// Every value of a repeatable option, in order; empty when it is not given.
  func values(_ key: String) -> [String] { values[key] ?? [] }
  func has(_ key: String) -> Bool { flags.contains(key) }

  /// Gives an option's values to another key (`rates lock`: `-o` is the lock file convert's `--lock` names).
  mutating func rename(_ key: String, to newKey: String) {
    values[newKey] = values.removeValue(forKey: key)
  }

  /// Splits arguments against a command's options: `--name value`, `--name=value`, `-o value`, flags,
  /// `--` to end options; `-` alone is a positional argument (standard input).
  ///
  /// - Throws: ``UsageError`` for an unknown option, a missing value, or an option that is not
  ///   ``OptionSpec/repeatable`` given twice.
  static func parse(_ arguments: ArraySlice<String>, options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var index = arguments.startIndex
    var optionsEnded = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        result.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String? = nil
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      // `--version` after any command prints the version (as before it), unless the command has an option so named.
      if name == "--version", inlineValue == nil, !options.contains(where: { $0.names.contains(name) }) {
        result.flags.insert(name)
        continue
      }
      guard let spec = options.first(where: { $0.names.contains(name) }) else {
        let known = options.flatMap(\.names)
        throw UsageError(
          "unknown option \(name)" + (Suggestion.closest(to: name, among: known).map { "; did you mean \($0)?" } ?? ""))
      }
      guard spec.valueName != nil else {
        if inlineValue != nil { throw UsageError("\(name) takes no value") }
        result.flags.insert(spec.key)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.endIndex else { throw UsageError("\(name) needs a value (\(spec.valueName ?? "VALUE"))") }
        value = arguments[index]
        index += 1
      }
      guard spec.repeatable || result.values[spec.key] == nil else { throw UsageError("\(name) is given twice") }
      result.values[spec.key, default: []].append(value)
    }
    return result
  }
}

/// A mistake on the command line: printed as one line plus the command's usage; exit status 64.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
