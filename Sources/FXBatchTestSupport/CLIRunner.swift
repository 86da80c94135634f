import Foundation

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
  /// - Returns: exit status and both streams, fully drained before waiting for exit.
  public func run(_ arguments: [String], in directory: URL, input: Data = Data()) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = environment
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    process.standardInput = inputPipe
    try process.run()
    let writer = Thread {
      inputPipe.fileHandleForWriting.write(input)
      try? inputPipe.fileHandleForWriting.close()
    }
    writer.start()
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

  public var description: String {
    switch self {
    case .executableNotFound(let searched): return "fxbatch not built; looked in \(searched.joined(separator: ", "))"
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
