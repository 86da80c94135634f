import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `fxbatch` executable, as end-to-end tests need it.
public struct CLIRunner: Sendable {
  /// What one run printed and returned.
  public struct Result: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
  }

  /// The `fxbatch` binary: built into the same directory as the test bundle (`.build/<configuration>/`).
  public let executable: URL

  /// Environment every run gets: a fixed `FXBATCH_TODAY`, so reports do not change with the calendar.
  public var environment: [String: String] = ["FXBATCH_TODAY": "2026-11-29", "PATH": "/usr/bin:/bin"]

  public init() throws {
    let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    var candidates = [directory.appendingPathComponent("fxbatch")]
    // swift-testing may run from a `.xctest` bundle directory one level below the products.
    candidates.append(directory.deletingLastPathComponent().appendingPathComponent("fxbatch"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw CLIRunnerError.executableNotFound(searched: candidates.map(\.path))
    }
    executable = found
  }

  public init(executable: URL) { self.executable = executable }

  /// Runs `fxbatch` with arguments in a directory.
  ///
  /// - Parameters:
  ///   - arguments: the arguments after the program name.
  ///   - directory: the working directory.
  ///   - input: bytes for standard input (empty: none).
  ///   - inputIsTerminal: give standard input a pseudo-terminal instead of a pipe (`input` is then not sent),
  ///     as a user typing the command at a shell has it.
  /// - Returns: exit status and both streams, fully drained before waiting for exit.
  public func run(_ arguments: [String], in directory: URL, input: Data = Data(), inputIsTerminal: Bool = false) throws
    -> Result
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = environment
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    var terminal: (controller: Int32, device: FileHandle)?
    defer {
      if let terminal {
        try? terminal.device.close()
        close(terminal.controller)
      }
    }
    if inputIsTerminal {
      // A Linux pseudo-terminal: the controller from /dev/ptmx, unlocked (TIOCSPTLCK 0), its device's number
      // (TIOCGPTN) naming /dev/pts/N. (posix_openpt and ptsname are not in the Glibc module.)
      let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: CInt = 0
      var number: CInt = 0
      guard controller >= 0, ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0
      else {
        if controller >= 0 { close(controller) }
        throw CLIRunnerError.noTerminal(reason: String(cString: strerror(errno)))
      }
      let device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
      guard device >= 0 else {
        close(controller)
        throw CLIRunnerError.noTerminal(reason: String(cString: strerror(errno)))
      }
      terminal = (controller, FileHandle(fileDescriptor: device, closeOnDealloc: false))
      process.standardInput = terminal?.device
      try process.run()
    } else {
      let inputPipe = Pipe()
      process.standardInput = inputPipe
      try process.run()
      let writer = Thread {
        inputPipe.fileHandleForWriting.write(input)
        try? inputPipe.fileHandleForWriting.close()
      }
      writer.start()
    }
    // Drain stderr on another thread while this one drains stdout, so neither pipe can fill up and block.
    let errorData = DataBox()
    let errorDone = DispatchSemaphore(value: 0)
    Thread {
      errorData.set(errorPipe.fileHandleForReading.readDataToEndOfFile())
      errorDone.signal()
    }.start()
    let outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
    errorDone.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData.get(), as: UTF8.self))
  }
}

/// Why the runner could not start.
public enum CLIRunnerError: Error, CustomStringConvertible {
  case executableNotFound(searched: [String])
  /// No pseudo-terminal could be opened for standard input.
  case noTerminal(reason: String)

  public var description: String {
    switch self {
    case .executableNotFound(let searched): return "fxbatch not built; looked in \(searched.joined(separator: ", "))"
    case .noTerminal(let reason): return "cannot open a pseudo-terminal: \(reason)"
    }
  }
}

/// A value handed from the draining thread; the semaphore orders the write before the read.
private final class DataBox: @unchecked Sendable {
  // Safe: written once by the draining thread before it signals, read only after the wait.
  private var data = Data()
  func set(_ value: Data) { data = value }
  func get() -> Data { data }
}
