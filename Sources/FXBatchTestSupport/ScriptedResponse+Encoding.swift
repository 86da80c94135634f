import Foundation

extension ScriptedResponse {
  /// Whether the script asks to close the connection after answering (`Connection: close` among the headers).
  var asksToClose: Bool {
    headers.contains { name, value in
      name.lowercased() == "connection" && value.lowercased().contains("close")
    }
  }

  /// The bytes to send in one write: status line, headers, blank line and (a prefix of) the body.
  ///
  /// - Parameters:
  ///   - closing: whether the connection closes after this response (`Connection: close`).
  ///   - bodyBytes: how many body bytes to include; `Content-Length` announces the whole body unless
  ///     `announcingLength` is `false`, when it is left out (the body ends when the connection closes).
  /// - Returns: the response as it goes on the wire.
  func encoded(closing: Bool, bodyBytes: Int, announcingLength: Bool = true) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      let lowered = name.lowercased()
      guard lowered != "content-length", lowered != "connection" else { continue }
      head += "\(name): \(value)\r\n"
    }
    if announcingLength { head += "Content-Length: \(body.count)\r\n" }
    head += "Connection: \(closing ? "close" : "keep-alive")\r\n\r\n"
    var bytes = Array(head.utf8)
    bytes.append(contentsOf: body.prefix(max(0, min(bodyBytes, body.count))))
    return bytes
  }

  /// The reason phrase for a status code (RFC 9110 section 15); the phrase is informative only.
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 413: "Content Too Large"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: "Status \(status)"
    }
  }
}
