import Dispatch
import Foundation
import Synchronization

/// The bounded concurrent fetch engine: sends every request once (plus retries), never more than `jobs` at a
/// time, and returns each answer by the request's index.
///
/// A `DispatchSemaphore` with `jobs` permits is waited on by the submitting thread (never inside a block on a
/// global queue, which would grow threads), a `DispatchGroup` tracks completion, results are stored by index
/// behind a `Mutex`. A request keeps its permit through its retries and their backoff, so `jobs` is a hard
/// ceiling on requests in flight. Completion handlers only store results or schedule the retry.
///
/// The run's ``FetchDeadline`` bounds it all: each attempt ends by it (the transport cuts its timeout), a retry
/// whose wait (backoff or `Retry-After`) would pass it is not made, and requests still waiting for a permit when
/// it passes are not sent; all of these fail with ``FetchError/deadline(seconds:attempts:last:retryAfter:)``.
public struct RateFetcher: Sendable {
  /// Progress of a run, for a progress line.
  public struct Progress: Sendable {
    public var done = 0
    public var total = 0
    public var retries = 0
  }

  public let transport: any HTTPTransport
  public let jobs: Int
  public let timeout: TimeInterval
  public let retryPolicy: RetryPolicy
  /// The run's fetch deadline, started by the first ``fetch(_:progress:)``; `nil`: none.
  public let deadline: FetchDeadline?

  public init(
    transport: any HTTPTransport, jobs: Int, timeout: TimeInterval, retryPolicy: RetryPolicy, deadline: FetchDeadline? = nil
  ) {
    precondition(jobs >= 1, "at least one request in flight")
    self.transport = transport
    self.jobs = jobs
    self.timeout = timeout
    self.retryPolicy = retryPolicy
    self.deadline = deadline
  }

  /// Fetches URLs and waits for all of them.
  ///
  /// - Parameters:
  ///   - urls: one GET request each.
  ///   - progress: called after each finished request and each retry (from any thread).
  /// - Returns: per URL, in order, the 2xx answer or the final failure; and the number of retries made.
  public func fetch(_ urls: [URL], progress: (@Sendable (Progress) -> Void)? = nil) -> (
    results: [Result<HTTPResponse, FetchError>], retries: Int
  ) {
    fetch(urls, progress: progress) { _, result in result }
  }

  /// Fetches URLs, reads each final result as it arrives, and waits for all of them: what is kept of each request
  /// is what `read` makes of it (a body need not outlive its reading).
  ///
  /// - Parameters:
  ///   - urls: one GET request each.
  ///   - progress: called after each finished request and each retry (from any thread).
  ///   - read: called once per URL with its index and its 2xx answer or final failure, from any thread (several at
  ///     once), before the request counts as finished.
  /// - Returns: per URL, in order, what `read` returned; and the number of retries made.
  public func fetch<Answer: Sendable>(
    _ urls: [URL], progress: (@Sendable (Progress) -> Void)? = nil,
    read: @escaping @Sendable (Int, Result<HTTPResponse, FetchError>) -> Answer
  ) -> (results: [Answer], retries: Int) {
    let state = FetchState<Answer>(count: urls.count)
    let gate = DispatchSemaphore(value: jobs)
    let group = DispatchGroup()
    if !urls.isEmpty {
      deadline?.start()
      progress?(state.progress())
    }
    for (index, url) in urls.enumerated() {
      guard acquire(gate) else {
        // The deadline passed while every permit was taken: the rest is not sent.
        state.store(
          read(index, .failure(.deadline(seconds: deadline?.seconds ?? 0, attempts: 0, last: nil, retryAfter: nil))), at: index)
        progress?(state.progress())
        continue
      }
      group.enter()
      attempt(url, number: 1, previous: nil, state: state, progress: progress) { result in
        state.store(read(index, result), at: index)
        progress?(state.progress())
        gate.signal()
        group.leave()
      }
    }
    group.wait()
    let results = state.results().enumerated().map { index, answer in
      answer ?? read(index, .failure(.connection("not fetched", attempts: 0)))
    }
    return (results, state.progress().retries)
  }

  /// Takes a permit, waiting at most until the deadline; `false` when it passed first.
  private func acquire(_ gate: DispatchSemaphore) -> Bool {
    guard let deadline else {
      gate.wait()
      return true
    }
    return gate.wait(timeout: .now() + deadline.remaining) == .success
  }

  /// Attempt `number` of a request; `previous` is the failure of the attempt before.
  private func attempt<Answer>(
    _ url: URL, number: Int, previous: FetchError?, state: FetchState<Answer>, progress: (@Sendable (Progress) -> Void)?,
    finish: @escaping @Sendable (Result<HTTPResponse, FetchError>) -> Void
  ) {
    if let deadline, deadline.hasPassed {
      finish(.failure(.deadline(seconds: deadline.seconds, attempts: number - 1, last: previous, retryAfter: nil)))
      return
    }
    transport.get(url, before: deadline?.instant) { result in
      let failure: FetchError
      var retryAfter: String? = nil
      switch result {
      case .success(let response) where (200...299).contains(response.status):
        finish(.success(response))
        return
      case .success(let response):
        failure = .httpStatus(
          response.status, url: url.absoluteString, attempts: number,
          body: String(decoding: response.body.prefix(300), as: UTF8.self))
        guard RetryPolicy.isRetryable(status: response.status) else {
          finish(.failure(failure))
          return
        }
        retryAfter = response.headers["retry-after"]
      case .failure(.timeout):
        if let deadline, deadline.hasPassed {
          // The transport's timeout was cut to the deadline.
          finish(.failure(.deadline(seconds: deadline.seconds, attempts: number, last: nil, retryAfter: nil)))
          return
        }
        failure = .timeout(seconds: timeout, attempts: number)
      case .failure(.tooSlow(let rate, let seconds)):
        failure = .tooSlow(bytesPerSecond: rate, seconds: seconds, attempts: number)
      case .failure(.connection(let reason)):
        failure = .connection(reason, attempts: number)
      case .failure(.tooLarge(let limit)):
        finish(.failure(.refused("the answer is larger than \(limit >> 20) MB")))
        return
      case .failure(.headersTooLarge(let limit)):
        finish(.failure(.refused("the answer's header fields are larger than \(limit >> 10) KB")))
        return
      case .failure(.redirected(let destination)):
        finish(
          .failure(
            .refused(
              "redirected elsewhere (\(destination)), which is not followed: only redirects within the same scheme,"
                + " host and port are")))
        return
      case .failure(.unusable(let reason)):
        finish(.failure(.refused(reason)))
        return
      }
      guard number <= retryPolicy.retries else {
        finish(.failure(failure))
        return
      }
      let delay = retryPolicy.delay(after: number, retryAfter: retryAfter)
      if let deadline, delay >= deadline.remaining {
        // Waiting would pass the deadline (a long Retry-After): give up now rather than sleep to no end.
        finish(
          .failure(
            .deadline(
              seconds: deadline.seconds, attempts: number, last: failure,
              retryAfter: retryAfter.map { Self.shown(retryAfter: $0) })))
        return
      }
      state.countRetry()
      progress?(state.progress())
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        attempt(url, number: number + 1, previous: failure, state: state, progress: progress, finish: finish)
      }
    }
  }
}

extension RateFetcher {
  /// A `Retry-After` value as a message quotes it: printable ASCII, at most 40 characters.
  static func shown(retryAfter: String) -> String {
    let printable = retryAfter.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }
    let text = String(String.UnicodeScalarView(printable.prefix(40)))
    return printable.count > 40 ? text + "…" : text
  }
}

/// Results and counters of one ``RateFetcher/fetch(_:progress:read:)`` call, shared by completion handlers.
private final class FetchState<Answer: Sendable>: Sendable {
  private let storage: Mutex<(results: [Answer?], progress: RateFetcher.Progress)>

  init(count: Int) {
    storage = Mutex((Array(repeating: nil, count: count), RateFetcher.Progress(done: 0, total: count, retries: 0)))
  }

  func store(_ result: Answer, at index: Int) {
    storage.withLock {
      $0.results[index] = result
      $0.progress.done += 1
    }
  }

  func countRetry() { storage.withLock { $0.progress.retries += 1 } }

  func progress() -> RateFetcher.Progress { storage.withLock { $0.progress } }

  func results() -> [Answer?] { storage.withLock { $0.results } }
}
