import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// fxbatch's named temporary files, and the removal of those a killed run left behind.
///
/// A run removes its temporary files when it ends, and on SIGINT or SIGTERM (``PendingFiles``); SIGKILL (or a
/// crash, or a power cut) leaves them. A later run that writes to the same directory removes the ones whose
/// process is gone: only files named as fxbatch names them, with the process ID in the name, where that
/// process no longer exists (`kill(pid, 0)` fails with `ESRCH`), that are regular files of this user.
public enum StaleTemporaryFiles {
  /// The temporary name of an output file while it is written (``AtomicFile``), in the same directory:
  /// `.NAME.fxbatch-PID-ATTEMPT.tmp`, with NAME cut short (by whole characters) when the whole would pass the
  /// 255 bytes a file name may have, so that an output of a long name can be written too.
  static func atomicName(of name: String, pid: pid_t, attempt: Int) -> String {
    let suffix = ".fxbatch-\(pid)-\(attempt).tmp"
    var kept = Substring(name)
    while !kept.isEmpty, 1 + kept.utf8.count + suffix.utf8.count > longestName { kept = kept.dropLast() }
    return "." + kept + suffix
  }

  /// The most bytes a file name may have (`NAME_MAX` on Linux and macOS).
  static let longestName = 255

  /// The name of a stream's spooled copy in `$TMPDIR` (``BatchJob``): `fxbatch-spool-PID-NUMBER`.
  public static func spoolName(pid: pid_t, number: Int) -> String { "fxbatch-spool-\(pid)-\(number)" }

  /// The process that made a file of this name, when the name is one of fxbatch's temporary names
  /// (``atomicName(of:pid:attempt:)``, ``spoolName(pid:number:)`` and its `.annotated` output, and
  /// `fxbatch-stdin-PID.csv`, the spool of
  /// earlier versions); `nil` for any other name.
  static func owner(ofName name: String) -> pid_t? {
    if name.hasPrefix("."), name.hasSuffix(".tmp"), let marker = name.range(of: ".fxbatch-", options: .backwards),
      marker.lowerBound > name.index(after: name.startIndex)
    {
      let numbers = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)].split(
        separator: "-", omittingEmptySubsequences: false)
      guard numbers.count == 2, isNumber(numbers[1]) else { return nil }
      return processID(numbers[0])
    }
    if name.hasPrefix("fxbatch-spool-") {
      // A spool, or the UTF-8 output of a spooled file in another encoding (`….annotated`).
      let spool = name.hasSuffix(".annotated") ? name.dropLast(".annotated".count) : Substring(name)
      let numbers = spool.dropFirst("fxbatch-spool-".count).split(separator: "-", omittingEmptySubsequences: false)
      guard numbers.count == 2, isNumber(numbers[1]) else { return nil }
      return processID(numbers[0])
    }
    if name.hasPrefix("fxbatch-stdin-"), name.hasSuffix(".csv") {
      return processID(name.dropFirst("fxbatch-stdin-".count).dropLast(".csv".count))
    }
    return nil
  }

  /// Removes, in each directory, the fxbatch temporary files whose process is gone (see the type's
  /// description); everything else is left alone, and a file that cannot be removed is skipped.
  ///
  /// - Parameter directories: the directories (`` is the current one); each is looked at once.
  /// - Returns: the paths removed.
  @discardableResult
  public static func remove(in directories: [String]) -> [String] {
    var removed: [String] = []
    var seen: Set<String> = []
    for directory in directories {
      let path = directory.isEmpty ? "." : directory
      guard seen.insert(path).inserted, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
        continue
      }
      for name in names {
        guard let pid = owner(ofName: name), pid != getpid(), isGone(pid) else { continue }
        let file = PathText.appending(name, to: path)
        var info = stat()
        // A regular file of this user, never followed through a link.
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
        if unlink(file) == 0 { removed.append(file) }
      }
    }
    return removed
  }

  /// Whether no process has this ID.
  private static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

  private static func isNumber(_ text: Substring) -> Bool {
    !text.isEmpty && text.count <= 18 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// A process ID written in decimal, greater than 1 (never 0, the caller's group, nor init).
  private static func processID(_ text: Substring) -> pid_t? {
    guard isNumber(text), let value = pid_t(text), value > 1 else { return nil }
    return value
  }
}
