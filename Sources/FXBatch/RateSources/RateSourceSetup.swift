import Foundation

/// A rate source made from the options, before anything is read or fetched.
public enum RateSourceSetup: Sendable {
  /// A table read when the run starts: `--rates FILE` (`path`), else the embedded ECB history or the newer
  /// copy `rates update` kept in the cache at `cacheDirectory`.
  case table(path: String?, cacheDirectory: String?)
  /// A service asked for the rates a run needs.
  case provider(any RateProvider)

  /// Reads a table: the rates file at `path`, else the embedded ECB history (or the newer one `rates update`
  /// kept in the cache at `cacheDirectory`, when there is one).
  ///
  /// - Throws: ``RatesFileError`` when the rates file cannot be read.
  public static func loadTable(path: String?, cacheDirectory: String?) throws(RatesFileError) -> RateTable {
    guard let path else {
      let cache = cacheDirectory.flatMap { directory in
        FileManager.default.fileExists(atPath: directory) ? try? RateCache(directory: directory) : nil
      }
      return EmbeddedECBHistory.newest(cache: cache)
    }
    return try RatesFile.load(path: path)
  }
}
