/// The scripts of ``LoopbackHTTPServer``'s routes and how far each has been played.
struct RouteTable {
  /// A route's responses and the index of the next one; the last one repeats once the others are used.
  struct Script {
    var responses: [ScriptedResponse]
    var next = 0

    mutating func take() -> ScriptedResponse? {
      guard !responses.isEmpty else { return nil }
      let response = responses[min(next, responses.count - 1)]
      next += 1
      return response
    }
  }

  private var byPath: [String: Script] = [:]
  private var responders: [String: @Sendable (HTTPRequestHead) -> ScriptedResponse] = [:]
  private var matchers: [(predicate: @Sendable (HTTPRequestHead) -> Bool, script: Script)] = []

  /// Sets the script of a path, replacing any earlier one and starting from its first response.
  mutating func set(path: String, _ responses: [ScriptedResponse]) {
    responders[path] = nil
    byPath[path] = Script(responses: responses)
  }

  /// Sets a path's responder, which computes each answer from the request (replacing any script for it).
  mutating func set(path: String, responder: @escaping @Sendable (HTTPRequestHead) -> ScriptedResponse) {
    byPath[path] = nil
    responders[path] = responder
  }

  /// Adds a script for the requests a predicate accepts.
  mutating func add(matching predicate: @escaping @Sendable (HTTPRequestHead) -> Bool, _ responses: [ScriptedResponse]) {
    matchers.append((predicate, Script(responses: responses)))
  }

  /// The next response for a request: from the route (or responder) of its exact path, else from the first
  /// predicate route that accepts it.
  ///
  /// - Returns: the response, or `nil` when no route (with a non-empty script) takes the request.
  mutating func next(for request: HTTPRequestHead) -> ScriptedResponse? {
    if let response = byPath[request.path]?.take() { return response }
    if let responder = responders[request.path] { return responder(request) }
    for index in matchers.indices where matchers[index].predicate(request) {
      if let response = matchers[index].script.take() { return response }
    }
    return nil
  }
}
