/// Describes where a rate table's numbers come from, for `fx_source`, messages and the run report.
public struct RateSourceInfo: Sendable, Equatable, Codable {
  /// A short stable identifier written at the start of `fx_source`: `ecb-embedded` or `file:NAME`.
  public let identifier: String
  /// The publisher as named in row messages, e.g. `"ECB"` or the rates file's name.
  public let publisher: String
  /// A one-line description for the summary, e.g. "ECB euro foreign exchange reference rates (embedded)".
  public let description: String

  public init(identifier: String, publisher: String, description: String) {
    self.identifier = identifier
    self.publisher = publisher
    self.description = description
  }
}
