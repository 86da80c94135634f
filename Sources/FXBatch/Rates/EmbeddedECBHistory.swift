/// The default rates: the ECB euro foreign exchange reference rates, full history (1999-01-04 .. 2026-10-30),
/// compiled into the binary at build time from `Rates/Embedded/eurofxref-hist.csv` (see the `SOURCE.md` beside
/// it), so that `fxbatch` needs no network and no files of its own.
public enum EmbeddedECBHistory {
  /// The source description of the embedded rates.
  public static let info = RateSourceInfo(
    identifier: "ecb-embedded", publisher: "ECB",
    description: "ECB euro foreign exchange reference rates (embedded history)")

  /// The embedded history as a rate table, parsed once per process on first use.
  public static let table: RateTable = {
    csv.withUTF8Buffer { bytes in
      do {
        return try ECBHistoryCSV.parse(bytes, path: "<embedded eurofxref-hist.csv>", info: info)
      } catch {
        preconditionFailure("the embedded ECB history does not parse: \(error)")
      }
    }
  }()
}
