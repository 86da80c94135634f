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

  public init(transport: any HTTPTransport, jobs: Int, timeout: TimeInterval, retryPolicy: RetryPolicy) {
    precondition(jobs >= 1, "at least one request in flight")
    self.transport = transport
    self.jobs = jobs
    self.timeout = timeout
    self.retryPolicy = retryPolicy
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
    let state = FetchState(count: urls.count)
    let gate = DispatchSemaphore(value: jobs)
    let group = DispatchGroup()
    if !urls.isEmpty { progress?(state.progress()) }
    for (index, url) in urls.enumerated() {
      gate.wait()
      group.enter()
      attempt(url, number: 1, state: state, progress: progress) { result in
        state.store(result, at: index)
        progress?(state.progress())
        gate.signal()
        group.leave()
      }
    }
    group.wait()
    return (state.results(), state.progress().retries)
  }

  private func attempt(
    _ url: URL, number: Int, state: FetchState, progress: (@Sendable (Progress) -> Void)?,
    finish: @escaping @Sendable (Result<HTTPResponse, FetchError>) -> Void
  ) {
    transport.get(url) { result in
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
        failure = .timeout(seconds: timeout, attempts: number)
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
      state.countRetry()
      progress?(state.progress())
      let delay = retryPolicy.delay(after: number, retryAfter: retryAfter)
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        attempt(url, number: number + 1, state: state, progress: progress, finish: finish)
      }
    }
  }
}

/// Results and counters of one ``RateFetcher/fetch(_:progress:)`` call, shared by completion handlers.
private final class FetchState: Sendable {
  private let storage: Mutex<(results: [Result<HTTPResponse, FetchError>?], progress: RateFetcher.Progress)>

  init(count: Int) {
    storage = Mutex((Array(repeating: nil, count: count), RateFetcher.Progress(done: 0, total: count, retries: 0)))
  }

  func store(_ result: Result<HTTPResponse, FetchError>, at index: Int) {
    storage.withLock {
      $0.results[index] = result
      $0.progress.done += 1
    }
  }

  func countRetry() { storage.withLock { $0.progress.retries += 1 } }

  func progress() -> RateFetcher.Progress { storage.withLock { $0.progress } }

  func results() -> [Result<HTTPResponse, FetchError>] {
    storage.withLock { state in
      state.results.map { $0 ?? .failure(.connection("not fetched", attempts: 0)) }
    }
  }
}
