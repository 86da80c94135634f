/// The option values one format (or a family of formats) owns, declared in that format's folder: a struct whose
/// `init()` gives the defaults (``BatchOptions`` holds them in ``FormatSettings`` without naming them).
protocol FormatSetting: Sendable {
  /// The defaults: the values of a run that gives none of these options.
  init()
  /// The options of ``FormatOptions`` these values give (not their defaults), for what decides by them without
  /// naming a format (``FileFormat/checkOptions(_:inputPath:)``, the format of a stream read once).
  var given: FormatOptions { get }
}

extension FormatSetting {
  var given: FormatOptions { [] }
}

/// The option values of every format, each kept under its type (``FormatSetting``); a type never set reads as its
/// defaults. A copy is one reference to the stored values; reading one is a lookup and a cast, done per file.
struct FormatSettings: Sendable {
  private var values: [ObjectIdentifier: any FormatSetting] = [:]

  /// The values of one format's options: those set, else the type's defaults.
  subscript<Setting: FormatSetting>(_ type: Setting.Type) -> Setting {
    get { values[ObjectIdentifier(type)] as? Setting ?? Setting() }
    set { values[ObjectIdentifier(type)] = newValue }
  }

  /// The options of ``FormatOptions`` the values set give.
  var given: FormatOptions {
    values.values.reduce(into: []) { $0.formUnion($1.given) }
  }
}
