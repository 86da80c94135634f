import CLibXML2

/// libxml2's one-time set-up, done before any use of the library from any thread.
///
/// libxml2 2.9 sets up its globals and its encoding handlers lazily and not thread-safely unless
/// `xmlInitParser()` ran first ("call once before processing in case of use in multithreaded programs"): two
/// threads opening their first documents at once (the tests do, and a run converts files while a feed is
/// parsed) raced in `xmlFindCharEncodingHandler` and crashed. A Swift `static let` runs its initializer exactly
/// once, whichever thread comes first.
enum LibXML2 {
  private static let initialized: Void = xmlInitParser()

  /// Makes sure libxml2 is set up; cheap after the first call.
  static func ensureInitialized() { _ = initialized }

  /// Keeps a reader's errors off standard error: without a handler of its own, libxml2 prints some of them there
  /// even under `XML_PARSE_NOERROR` (a text node past its limit: "parser error : xmlSAX2Characters: huge text
  /// node" and two lines of the document), before fxbatch's own one-line message. The errors are still libxml2's
  /// last error (``lastErrorMessage()``), which that message is made from.
  static func quiet(_ reader: xmlTextReaderPtr) {
    xmlTextReaderSetStructuredErrorHandler(reader, { _, _ in }, nil)
  }

  /// The message of libxml2's last error on one line, or `nil` when there is none: libxml2 puts some details
  /// on a second line ("Bytes: 0xE9 0x22"), and a file error or a record's error is one line.
  static func lastErrorMessage() -> (message: String, line: Int, column: Int)? {
    guard let error = xmlGetLastError(), let text = error.pointee.message else { return nil }
    let message = String(cString: text).split(whereSeparator: \.isNewline).map(\.trimmingWhitespace)
      .filter { !$0.isEmpty }.joined(separator: " ")
    return (message, Int(error.pointee.line), Int(error.pointee.int2))
  }
}
