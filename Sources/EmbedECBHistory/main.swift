// Build-time tool of the EmbedECBHistoryPlugin: writes the ECB history CSV as a Swift `StaticString`,
// so the library reads the embedded rates straight from the binary's read-only data, without copying.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: EmbedECBHistory INPUT.csv OUTPUT.swift\n".utf8))
  exit(64)
}
let input = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
// A raw string literal holds the bytes unchanged as long as they contain no `"#` sequence, no backslash
// issue (raw) and no carriage return; the ECB CSV is digits, codes, commas, dots and `N/A`.
guard !input.contains(UInt8(ascii: "\"")), !input.contains(UInt8(ascii: "\r")) else {
  FileHandle.standardError.write(Data("EmbedECBHistory: unexpected quote or CR in \(arguments[1])\n".utf8))
  exit(65)
}
var text = String(decoding: input, as: UTF8.self)
if !text.hasSuffix("\n") { text += "\n" }
let source = """
  // Generated at build time by EmbedECBHistory from RateSources/Embedded/eurofxref-hist.csv. Do not edit.
  extension EmbeddedECBHistory {
    /// The ECB euro foreign exchange reference rates, full history CSV, byte for byte.
    static let csv: StaticString = #\"\"\"
  \(text)\"\"\"#
  }

  """
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
