import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a program as a child process, watched while it runs: its peak resident memory and how it ended,
/// for tests that bound memory and time on hostile input.
///
/// The peak is the child's `VmHWM` in `/proc/PID/status`, read every 2 ms while it runs (it only grows, so the
/// last reading is the peak up to a few milliseconds before exit). Not `ru_maxrss` from `wait4(2)`: Linux keeps
/// the high-water mark across `execve`, and a child spawned with `vfork` semantics starts from the parent's,
/// so a test runner of 400 MB reported every child at 400 MB.
public struct MeasuredRun: Sendable {
  /// The exit status, or `nil` when a signal ended the process.
  public let status: Int32?
  /// The signal that ended the process, if one did.
  public let signal: Int32?
  /// The child's peak resident set size in KiB (`VmHWM`).
  public let peakResidentKiB: Int
  /// Wall-clock seconds from start to exit.
  public let seconds: Double
  /// Whether the run was killed for passing its time limit.
  public let timedOut: Bool
  /// What it wrote to standard error.
  public let standardError: String

  /// Runs `executable` with `arguments` (in this process's working directory: give absolute paths), standard
  /// input from `/dev/null`, standard output discarded, standard error to a file in `directory` that is read back;
  /// kills it with SIGKILL after `timeLimit` seconds.
  ///
  /// - Throws: ``MeasuredRunError`` when the process cannot be started.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String], timeLimit: Double
  ) throws -> MeasuredRun {
    let errorPath = directory.appendingPathComponent(".measured-stderr-\(UUID().uuidString)").path
    defer { unlink(errorPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let started = Date()
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
    guard spawned == 0 else { throw MeasuredRunError.cannotStart(code: spawned) }
    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    var peak = 0
    while true {
      peak = max(peak, Self.highWaterMarkKiB(of: pid))
      let waited = wait4(pid, &status, WNOHANG, &usage)
      if waited == pid { break }
      if waited < 0, errno != EINTR { throw MeasuredRunError.cannotWait(code: errno) }
      if !timedOut, Date().timeIntervalSince(started) > timeLimit {
        kill(pid, SIGKILL)
        timedOut = true
      }
      usleep(2_000)
    }
    let seconds = Date().timeIntervalSince(started)
    let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    // The wait status: the low 7 bits are the terminating signal, 0 for a normal exit with status in bits 8…15.
    let signal = status & 0x7F
    return MeasuredRun(
      status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
      peakResidentKiB: peak, seconds: seconds, timedOut: timedOut, standardError: errorText)
  }

  /// The `VmHWM` of a running process in KiB; 0 when it cannot be read (the process has exited).
  private static func highWaterMarkKiB(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
  }
}

/// Why a measured run could not be made.
public enum MeasuredRunError: Error, CustomStringConvertible {
  case cannotStart(code: Int32)
  case cannotWait(code: Int32)

  public var description: String {
    switch self {
    case .cannotStart(let code): return "posix_spawn failed: \(String(cString: strerror(code)))"
    case .cannotWait(let code): return "wait4 failed: \(String(cString: strerror(code)))"
    }
  }
}
