/// Every file format fxbatch knows, in the order content sniffing asks them. Adding a format is its folder
/// under `Formats/` plus one line here.
public enum FormatRegistry {
  static let formats: [any FileFormat.Type] = [
    ODSFormat.self,
    XLSXFormat.self,
    XMLFormat.self,
    JSONFormat.self,
    JSONLinesFormat.self,
    CSVFormat.self,
  ]

  /// The format of a file nothing else recognises.
  static let fallback: any FileFormat.Type = CSVFormat.self

  /// The type of a format name.
  static func type(of format: RecordFormat) -> any FileFormat.Type {
    formats.first { $0.format == format } ?? fallback
  }

  /// The `--format` values, e.g. `csv|json|jsonl|xml`, in the CLI's order (alphabetical).
  public static var names: [String] { formats.map { $0.format.rawValue }.sorted() }

  /// The formats' names for people, e.g. `CSV, JSON, JSON Lines or XML`.
  public static var displayNames: String {
    let names = formats.sorted { $0.format.rawValue < $1.format.rawValue }.map { $0.displayName }
    return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// The extensions that name each format, for help text: `.csv .tsv .txt, .json, …`.
  public static var extensionsHelp: String {
    formats.sorted { $0.format.rawValue < $1.format.rawValue }
      .map { $0.fileExtensions.map { "." + $0 }.joined(separator: " ") }.joined(separator: ", ")
  }

  /// The details a format adds to a converted file's summary line.
  public static func summaryDetails(of file: RunReport.File) -> [String] {
    guard let name = file.format, let format = formats.first(where: { $0.format.rawValue == name }) else { return [] }
    return format.summaryDetails(of: file)
  }
}
