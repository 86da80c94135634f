import Foundation

/// The CLI's two text streams: standard output for data, standard error for summaries and messages.
enum Console {
  static func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
  static func error(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

/// Exit statuses of `fxbatch`.
enum ExitStatus {
  static let success: Int32 = 0
  /// Some records could not be converted.
  static let rowErrors: Int32 = 1
  /// A file could not be read, parsed or written.
  static let fileError: Int32 = 2
  /// A mistake on the command line (BSD `EX_USAGE`).
  static let usage: Int32 = 64
}
