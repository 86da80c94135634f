import Foundation
import Synchronization

/// The time limit of a run's whole fetch phase (`--deadline`): it starts when the run sends its first request and
/// is shared by every request after it (the links of a chain, narrowed requests, retries), so that neither
/// retries, nor a `Retry-After` wait, nor slow answers take the phase past it. Keys not answered by then fail
/// with `timeout`.
///
/// One per run: copies of ``FetchSettings`` share it, and once started it does not start again.
public final class FetchDeadline: Sendable {
  /// The limit when `--deadline` is not given, in seconds: a run of 24 keys against a service that answers 503
  /// with the longest `Retry-After` honoured (30 s) took 270 s before the limit.
  public static let defaultSeconds: TimeInterval = 120

  /// The limit in seconds.
  public let seconds: TimeInterval
  private let end = Mutex<ContinuousClock.Instant?>(nil)

  public init(seconds: TimeInterval = FetchDeadline.defaultSeconds) {
    precondition(seconds > 0, "a deadline leaves some time")
    self.seconds = seconds
  }

  /// Starts the clock unless it runs already.
  ///
  /// - Returns: the moment the phase ends.
  @discardableResult
  public func start() -> ContinuousClock.Instant {
    end.withLock { end in
      if let end { return end }
      let started = ContinuousClock.now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded(.up))))
      end = started
      return started
    }
  }

  /// The moment the phase ends; `nil` before it started.
  public var instant: ContinuousClock.Instant? { end.withLock { $0 } }

  /// Whether too little time is left to ask for anything: the deadline passed, or is less than 0.1 s away (a
  /// transport's timeout cut to the deadline ends a few milliseconds early, in whole milliseconds; a request sent
  /// in what is left could not be answered).
  public var hasPassed: Bool { remaining < 0.1 }

  /// Seconds left before the end (0 once passed); the whole limit before the phase started.
  public var remaining: TimeInterval {
    guard let instant else { return seconds }
    let left = ContinuousClock.now.duration(to: instant)
    return max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
  }
}
