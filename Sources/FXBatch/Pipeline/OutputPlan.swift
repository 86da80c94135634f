import Foundation

/// Where each input's annotated copy goes (`-o FILE`, `-o -`, `--output-dir DIR`, else `X.converted.EXT` beside
/// `X.EXT`, and `X.converted.EXT.gz` beside `X.EXT.gz`), decided before anything is read: never over an input, never two inputs to one file; an input that
/// is this run's own earlier output is skipped rather than read while being replaced.
struct OutputPlan {
  let options: BatchOptions

  /// The output path of an input (`nil` for standard output), before any checks.
  ///
  /// A stream (standard input, a pipe, a FIFO, a device: ``isStream(_:)``) has nothing beside it to write to:
  /// its copy goes to standard output unless `-o` or `--output-dir` says otherwise, and in a directory it is
  /// named by its last component (`stdin` for `-`) with the format's extension when it has none.
  func plannedOutput(for inputPath: String) -> String? {
    switch options.destination {
    case .standardOutput: return nil
    case .besideInput where Self.isStream(inputPath): return nil
    case .file(let file): return file
    case .besideInput, .directory:
      let stream = Self.isStream(inputPath)
      var name = inputPath == "-" ? "stdin" : PathText.lastComponent(of: inputPath)
      if name.isEmpty || name == "." || name == ".." { name = "input" }
      // A compression's extension stays last, after the format's: `x.csv.gz` → `x.converted.csv.gz`.
      let compressed = stream ? "" : Compression.named(name).map { _ in "." + PathText.splitExtension(name).extension } ?? ""
      var (stem, ext) = PathText.splitExtension(String(name.dropLast(compressed.count)))
      if stream, ext.isEmpty { ext = (options.format ?? FormatRegistry.fallback.format).rawValue }
      let outputName = stem + ".converted" + (ext.isEmpty ? "" : "." + ext) + compressed
      if case .directory(let directory) = options.destination {
        return PathText.appending(outputName, to: directory)
      }
      return PathText.appending(outputName, to: PathText.directory(of: inputPath))
    }
  }

  /// Whether an input is read as a stream, once: standard input (`-`), a path that exists and is neither a
  /// regular file nor a directory (`/dev/stdin`, a pipe such as `<(cat f.csv)`, a FIFO, a device), or any path
  /// under `/dev/` or `/proc/` (`/dev/stdin` redirected from a file: nothing may be written beside it). Such an
  /// input is spooled to a temporary file in pass 1 (``BatchJob``), and both passes read the spool.
  static func isStream(_ inputPath: String) -> Bool {
    guard inputPath != "-", !inputPath.hasPrefix("/dev/"), !inputPath.hasPrefix("/proc/") else { return true }
    var info = stat()
    guard stat(inputPath, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
  }

  /// The output path of an input, refusing to overwrite an input, to give two inputs the same output, or to
  /// write two inputs' copies to standard output.
  func output(for inputPath: String, skipped: [String: String], claimed: inout Set<String>) throws(FileError)
    -> String?
  {
    guard let path = plannedOutput(for: inputPath) else {
      // Canonical paths are absolute: "-" stands for standard output.
      guard claimed.insert("-").inserted else {
        throw FileError(
          path: inputPath,
          message:
            "another input of this run already writes its annotated copy to standard output; give --output-dir DIR")
      }
      return nil
    }
    let canonical = Self.canonical(path)
    if options.inputPaths.contains(where: { $0 != "-" && skipped[$0] == nil && Self.canonical($0) == canonical }) {
      throw FileError(path: inputPath, message: "the output \(path) is an input file; fxbatch never modifies its input")
    }
    guard claimed.insert(canonical).inserted else {
      throw FileError(path: inputPath, message: "another input in this run also writes \(path)")
    }
    return path
  }

  /// Inputs that are an earlier fxbatch output (`isAnnotatedOutput`, asked of the file's format) of another
  /// input of this run (a second
  /// `fxbatch convert *.csv` also matches the first run's `X.converted.csv`): they are skipped rather than
  /// read while being replaced. A file of the same name that is not an fxbatch output is never skipped, and
  /// then blocks the other input's output instead of being overwritten.
  func inputsProducedByThisRun(isAnnotatedOutput: (String) -> Bool) -> [String: String] {
    var producer: [String: String] = [:]
    for input in options.inputPaths where input != "-" {
      if let output = plannedOutput(for: input) { producer[Self.canonical(output)] = input }
    }
    var skipped: [String: String] = [:]
    // A stream is never skipped: asking whether it is an fxbatch output would read it.
    for input in options.inputPaths where !Self.isStream(input) {
      if let source = producer[Self.canonical(input)], source != input, isAnnotatedOutput(input) { skipped[input] = source }
    }
    return skipped
  }

  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }
}

extension BatchOptions {
  /// Why a file the run writes besides its outputs (`--lock`, `--report`) may not be written at `path`: it is
  /// an input (fxbatch never modifies its input) or an input's output; `nil` when it may.
  public func conflict(ofWrittenFile path: String) -> String? {
    let plan = OutputPlan(options: self)
    let target = OutputPlan.canonical(path)
    if let input = inputPaths.first(where: { $0 != "-" && OutputPlan.canonical($0) == target }) {
      return "it is the input \(input); fxbatch never modifies its input"
    }
    if let input = inputPaths.first(where: { plan.plannedOutput(for: $0).map(OutputPlan.canonical) == target }) {
      return "it is the output of \(input)"
    }
    return nil
  }

  /// Whether two paths name the same file.
  public static func sameFile(_ first: String, _ second: String) -> Bool {
    OutputPlan.canonical(first) == OutputPlan.canonical(second)
  }
}
