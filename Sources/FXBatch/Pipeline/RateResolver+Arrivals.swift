import Dispatch
import Foundation
import Synchronization

/// A provider's answers read as they arrive: each request's answer is read on the fetch's threads when it completes
/// (``RateProvider/answers(to:response:maxStaleness:)``) and its body dropped, and the resolver takes the read answers
/// in request order, so that a run never holds every answer's body at once (150 answers of 2.6 MB each for the
/// world's currencies; the answers of ten years of sparse days).
extension RateResolver {
  /// What the resolver keeps of a request sent: the keys' answers read from its 2xx answer, or its final failure.
  enum FetchedAnswer: Sendable {
    case answered([RateKey: Result<RateQuote, RowError>])
    /// The answers of a ``BatchAnsweringProvider``, which the table takes whole.
    case batch(AnswerBatch)
    case failed(FetchError)
  }

  /// The answers taken so far from a provider's requests, and what the run report says of them.
  struct TakenAnswers {
    /// Every key's answer so far: the plan's local answers, then each request's, later ones replacing earlier.
    var quotes: AnswerTable
    /// The quotes fetched, for the rate cache (kept only when they will be stored: ``keepsFetched``).
    var fetched: [RateKey: RateQuote] = [:]
    let keepsFetched: Bool
    var requests = 0
    var retries = 0
    var failedRequests = 0

    /// Takes a request's answer: its keys' answers, or its failure's errors (``RateProvider/rowErrors(for:request:)``).
    ///
    /// - Returns: whether every key of the request is known to have its answer now (a batch, which answers each
    ///   key of its request once, or a failure's errors); `false` when its keys are to be checked one by one.
    @discardableResult
    mutating func take(_ answer: FetchedAnswer, of request: RateRequest, provider: any RateProvider) -> Bool {
      var answersEveryKey = false
      requests += 1
      switch answer {
      case .answered(let answers):
        for (key, answer) in answers {
          quotes.set(key, answer)
          if keepsFetched, case .success(let quote) = answer { fetched[key] = quote }
        }
        // An answer that served none of its keys (an error body, garbage) is a failed request too.
        if !answers.values.contains(where: { (try? $0.get()) != nil }) { failedRequests += 1 }
      case .batch(let batch):
        quotes.take(batch)
        if keepsFetched {
          for (key, answer) in batch.values {
            if case .success(let quote) = answer { fetched[key] = quote }
          }
        }
        if !batch.answersAny { failedRequests += 1 }
        answersEveryKey = batch.count == request.keys.count
      case .failed(let failure):
        let errors = provider.rowErrors(for: failure, request: request)
        for (key, error) in errors { quotes.set(key, .failure(error)) }
        failedRequests += 1
        answersEveryKey = errors.count == request.keys.count
      }
      return answersEveryKey
    }
  }

  /// How a request's result is read on the fetch's threads.
  typealias AnswerReader = @Sendable (RateRequest, Result<HTTPResponse, FetchError>) -> FetchedAnswer

  /// The read of a request's result by a provider (on the fetch's threads).
  static func reader(_ provider: any RateProvider, maxStaleness: Int) -> AnswerReader {
    { request, result in
      switch result {
      case .success(let response):
        if let batching = provider as? any BatchAnsweringProvider {
          return .batch(batching.answerBatch(to: request, response: response, maxStaleness: maxStaleness))
        }
        return .answered(provider.answers(to: request, response: response, maxStaleness: maxStaleness))
      case .failure(let failure):
        return .failed(failure)
      }
    }
  }

  /// Sends requests through the bounded fetcher; each result is read by `read` on the fetch's threads as it
  /// arrives (the body is dropped once read), and handed to `take` on this thread, in request order, as soon as
  /// it and every earlier one are read.
  ///
  /// - Returns: the number of retries made.
  func fetch<Answer: Sendable>(
    _ requests: [RateRequest], settings: FetchSettings,
    read: @escaping @Sendable (RateRequest, Result<HTTPResponse, FetchError>) -> Answer, take: (Int, Answer) -> Void
  ) -> Int {
    let transport = settings.transport ?? CurlTransport(maximumConnections: settings.jobs, timeout: settings.timeout)
    let fetcher = RateFetcher(
      transport: transport, jobs: settings.jobs, timeout: settings.timeout, retryPolicy: settings.retryPolicy,
      deadline: settings.deadline)
    let arrivals = Arrivals<Answer>()
    let retries = Mutex(0)
    let finished = DispatchSemaphore(value: 0)
    let progress = settings.progress
    let jobs = max(settings.jobs, 1)
    Thread {
      let (_, count) = fetcher.fetch(requests.map(\.url), progress: progress) { index, result in
        // The bodies read before this one are freed by now: their pages go back rather than stay in the
        // fetch threads' malloc arenas (``FreedMemory``), once a round of `jobs` requests (a trim costs a walk of
        // every arena and the pages' faults when used again).
        if index % jobs == jobs - 1 { FreedMemory.release() }
        arrivals.put(read(requests[index], result), at: index)
      }
      retries.withLock { $0 = count }
      finished.signal()
    }.start()
    for index in requests.indices { take(index, arrivals.take(index)) }
    finished.wait()
    return retries.withLock { $0 }
  }
}

/// Answers read on the fetch's threads, taken in request order by the thread that asked.
private final class Arrivals<Answer: Sendable>: Sendable {
  private let arrived = Mutex<[Int: Answer]>([:])
  /// Signalled once per answer put: a taker waits for the next one when the answer it wants has not arrived.
  private let signal = DispatchSemaphore(value: 0)

  func put(_ answer: Answer, at index: Int) {
    arrived.withLock { $0[index] = answer }
    signal.signal()
  }

  func take(_ index: Int) -> Answer {
    while true {
      if let answer = arrived.withLock({ $0.removeValue(forKey: index) }) { return answer }
      signal.wait()
    }
  }
}
