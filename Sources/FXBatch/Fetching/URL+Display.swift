import Foundation

extension URL {
  /// The URL as text without a user name or password, for summaries, plans and cache keys.
  var displayText: String {
    guard user != nil || password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
      return absoluteString
    }
    components.user = nil
    components.password = nil
    return components.string ?? absoluteString
  }
}
