import Foundation
import Testing

@testable import FXBatch

@Suite("RetryPolicy: what is retried and how long to wait")
struct RetryPolicyTests {
  @Test(arguments: [
    (429, true), (500, true), (502, true), (503, true), (599, true), (400, false), (404, false), (422, false), (200, false),
  ])
  func retryableStatuses(status: Int, retryable: Bool) {
    #expect(RetryPolicy.isRetryable(status: status) == retryable)
  }

  @Test func backoffIsJitteredExponentialAndCapped() {
    let policy = RetryPolicy(retries: 5, baseDelay: 0.5)
    for attempt in 1...8 {
      let ceiling = min(0.5 * pow(2, Double(attempt - 1)), policy.maximumDelay)
      for _ in 0..<50 {
        let delay = policy.delay(after: attempt, retryAfter: nil)
        #expect(delay >= 0 && delay <= ceiling)
      }
    }
  }

  @Test func retryAfterSecondsAndHTTPDateAreHonouredAndCapped() throws {
    let policy = RetryPolicy()
    #expect(policy.delay(after: 1, retryAfter: "1") == 1)
    #expect(policy.delay(after: 1, retryAfter: "3600") == policy.maximumRetryAfter)
    // Delay-seconds past Int are a long wait (they were ignored: a retry at once), capped like any.
    #expect(policy.delay(after: 1, retryAfter: "99999999999999999999") == policy.maximumRetryAfter)
    #expect(policy.delay(after: 1, retryAfter: " 99999999999999999999999999999999999999999 ") == policy.maximumRetryAfter)
    // RFC 9110's example date, 5 seconds after "now".
    let now = try #require(ISO8601DateFormatter().date(from: "1994-11-06T08:49:32Z"))
    #expect(policy.delay(after: 1, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 5)
    // A date in the past means "now".
    #expect(policy.delay(after: 1, retryAfter: "Sun, 06 Nov 1994 08:49:30 GMT", now: now) == 0)
    // Garbage falls back to backoff.
    #expect(policy.delay(after: 1, retryAfter: "soon") <= policy.baseDelay)
  }

  @Test func fetchErrorsBecomeRowErrors() {
    #expect(
      FetchError.httpStatus(503, url: "u", attempts: 4, body: "").rowError.description
        == "source_unavailable: HTTP 503 after 4 attempts")
    #expect(FetchError.timeout(seconds: 10, attempts: 4).rowError.description == "timeout: no answer in 10 s after 4 attempts")
    #expect(FetchError.timeout(seconds: 0.5, attempts: 1).rowError.description == "timeout: no answer in 0.5 s")
    #expect(FetchError.httpStatus(400, url: "u", attempts: 1, body: "").rowError.code == .badResponse)
    #expect(
      FetchError.connection("connection refused", attempts: 2).rowError.description
        == "source_unavailable: connection refused after 2 attempts")
    // The fetch deadline: timeout, naming it and what it cut short.
    #expect(
      FetchError.deadline(seconds: 120, attempts: 1, last: .timeout(seconds: 10, attempts: 1), retryAfter: nil).rowError
        .description == "timeout: no answer in 10 s; the fetch deadline (--deadline 120 s) leaves no time to retry")
    #expect(
      FetchError.deadline(seconds: 2.5, attempts: 0, last: nil, retryAfter: nil).rowError.description
        == "timeout: not sent: the fetch deadline (--deadline 2.5 s) had passed")
  }
}
