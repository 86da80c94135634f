@preconcurrency import CSQLite3
import Foundation
import Synchronization

/// A persistent cache of fetched rates, in an SQLite database (`rates.sqlite3` in the cache directory:
/// `--cache-dir`, default `$XDG_CACHE_HOME/fxbatch` or `~/.cache/fxbatch`).
///
/// A rate for a past day never changes, so it is kept for good. An answer for today (or later) that is not
/// yet that day's publication — the ECB publishes around 16:00 CET on TARGET working days — expires at the
/// next 15:00 UTC, when the day's rates are out. SQLite's write-ahead log and a busy timeout make two runs
/// using the cache at once safe.
public final class RateCache: Sendable {
  public let path: String
  /// The database handle; SQLite is used from one thread at a time, behind this lock.
  private let connection: Mutex<OpaquePointer?>

  /// Opens (creating when needed) the cache in a directory.
  ///
  /// - Throws: ``RateCacheError`` when the directory or database cannot be created or opened.
  public init(directory: String) throws(RateCacheError) {
    path = PathText.appending("rates.sqlite3", to: directory)
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw RateCacheError(path: path, message: "cannot create the directory: \(error.localizedDescription)")
    }
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK,
      let handle
    else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close(handle)
      throw RateCacheError(path: path, message: message)
    }
    sqlite3_busy_timeout(handle, 10_000)
    let schema = """
      PRAGMA journal_mode=WAL;
      CREATE TABLE IF NOT EXISTS quotes (
        source TEXT NOT NULL, base TEXT NOT NULL, quote TEXT NOT NULL, day TEXT NOT NULL,
        numerator TEXT NOT NULL, denominator TEXT NOT NULL, rate_text TEXT NOT NULL, rate_day TEXT,
        fallback INTEGER NOT NULL, rate_source TEXT NOT NULL, fetched_at REAL NOT NULL, expires_at REAL,
        PRIMARY KEY (source, base, quote, day));
      CREATE TABLE IF NOT EXISTS histories (
        source TEXT PRIMARY KEY, fetched_at REAL NOT NULL, last_day TEXT NOT NULL, csv BLOB NOT NULL);
      """
    var errorMessage: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, schema, nil, nil, &errorMessage) == SQLITE_OK else {
      let message = errorMessage.map { String(cString: $0) } ?? "cannot create the schema"
      sqlite3_free(errorMessage)
      sqlite3_close(handle)
      throw RateCacheError(path: path, message: message)
    }
    connection = Mutex(handle)
  }

  deinit { connection.withLock { _ = sqlite3_close($0) } }

  /// The default cache directory: `$XDG_CACHE_HOME/fxbatch`, else `$HOME/.cache/fxbatch`.
  public static func defaultDirectory(environment: [String: String]) -> String? {
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/fxbatch" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/fxbatch" }
    return nil
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// The cached quotes of some keys that have not expired.
  ///
  /// - Parameters:
  ///   - keys: the keys to look up.
  ///   - source: the provider and endpoint the rates came from.
  ///   - now: the current time, for expiry.
  public func quotes(for keys: [RateKey], source: String, now: Date = Date()) -> [RateKey: RateQuote] {
    connection.withLock { handle in
      var found: [RateKey: RateQuote] = [:]
      var statement: OpaquePointer?
      let sql = """
        SELECT numerator, denominator, rate_text, rate_day, fallback, rate_source FROM quotes
        WHERE source = ? AND base = ? AND quote = ? AND day = ? AND (expires_at IS NULL OR expires_at > ?)
        """
      guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [:] }
      defer { sqlite3_finalize(statement) }
      for key in keys {
        sqlite3_reset(statement)
        sqlite3_bind_text(statement, 1, source, -1, Self.transient)
        sqlite3_bind_text(statement, 2, key.pair.base.description, -1, Self.transient)
        sqlite3_bind_text(statement, 3, key.pair.quote.description, -1, Self.transient)
        sqlite3_bind_text(statement, 4, key.day.description, -1, Self.transient)
        sqlite3_bind_double(statement, 5, now.timeIntervalSince1970)
        guard sqlite3_step(statement) == SQLITE_ROW else { continue }
        func text(_ column: Int32) -> String? { sqlite3_column_text(statement, column).map { String(cString: $0) } }
        guard let numerator = text(0).flatMap({ ExactDecimal($0) }), numerator.significand > 0,
          let denominator = text(1).flatMap({ ExactDecimal($0) }), denominator.significand > 0,
          let rateText = text(2), let source = text(5)
        else { continue }
        let rateDay = text(3).flatMap { CalendarDay(iso8601: $0) }
        found[key] = RateQuote(
          rate: ExchangeRate(numerator: numerator, denominator: denominator), rateText: rateText, rateDay: rateDay,
          isFallback: sqlite3_column_int(statement, 4) != 0, source: source)
      }
      return found
    }
  }

  /// Stores fetched quotes.
  ///
  /// - Parameters:
  ///   - quotes: the answers to keep.
  ///   - source: the provider and endpoint they came from.
  ///   - today: the run's day, for expiry.
  ///   - now: the current time.
  public func store(_ quotes: [RateKey: RateQuote], source: String, today: CalendarDay, now: Date = Date()) {
    connection.withLock { handle in
      var statement: OpaquePointer?
      let sql = "INSERT OR REPLACE INTO quotes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
      guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return }
      defer { sqlite3_finalize(statement) }
      sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
      for (key, quote) in quotes {
        sqlite3_reset(statement)
        sqlite3_bind_text(statement, 1, source, -1, Self.transient)
        sqlite3_bind_text(statement, 2, key.pair.base.description, -1, Self.transient)
        sqlite3_bind_text(statement, 3, key.pair.quote.description, -1, Self.transient)
        sqlite3_bind_text(statement, 4, key.day.description, -1, Self.transient)
        sqlite3_bind_text(statement, 5, quote.rate.numerator.description, -1, Self.transient)
        sqlite3_bind_text(statement, 6, quote.rate.denominator.description, -1, Self.transient)
        sqlite3_bind_text(statement, 7, quote.rateText, -1, Self.transient)
        if let rateDay = quote.rateDay {
          sqlite3_bind_text(statement, 8, rateDay.description, -1, Self.transient)
        } else {
          sqlite3_bind_null(statement, 8)
        }
        sqlite3_bind_int(statement, 9, quote.isFallback ? 1 : 0)
        sqlite3_bind_text(statement, 10, quote.source, -1, Self.transient)
        sqlite3_bind_double(statement, 11, now.timeIntervalSince1970)
        if let expiry = Self.expiry(of: quote, key: key, today: today, now: now) {
          sqlite3_bind_double(statement, 12, expiry.timeIntervalSince1970)
        } else {
          sqlite3_bind_null(statement, 12)
        }
        sqlite3_step(statement)
      }
      sqlite3_exec(handle, "COMMIT", nil, nil, nil)
    }
  }

  /// Keeps a whole reference-rate history (`fxbatch rates update`), as ECB history CSV text.
  ///
  /// - Parameters:
  ///   - csv: the history in the layout ``ECBHistoryCSV`` reads.
  ///   - lastDay: its newest publication day.
  ///   - source: where it came from.
  public func storeHistory(csv: String, lastDay: CalendarDay, source: String, now: Date = Date()) throws(RateCacheError) {
    let failure: String? = connection.withLock { handle in
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(handle, "INSERT OR REPLACE INTO histories VALUES (?, ?, ?, ?)", -1, &statement, nil) == SQLITE_OK
      else { return String(cString: sqlite3_errmsg(handle)) }
      defer { sqlite3_finalize(statement) }
      let bytes = Array(csv.utf8)
      sqlite3_bind_text(statement, 1, source, -1, Self.transient)
      sqlite3_bind_double(statement, 2, now.timeIntervalSince1970)
      sqlite3_bind_text(statement, 3, lastDay.description, -1, Self.transient)
      sqlite3_bind_blob(statement, 4, bytes, Int32(bytes.count), Self.transient)
      return sqlite3_step(statement) == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(handle))
    }
    if let failure { throw RateCacheError(path: path, message: failure) }
  }

  /// The kept history of a source, if any: its CSV bytes, newest day and when it was fetched.
  public func history(source: String) -> (csv: [UInt8], lastDay: CalendarDay, fetchedAt: Date)? {
    connection.withLock { handle in
      var statement: OpaquePointer?
      guard
        sqlite3_prepare_v2(handle, "SELECT fetched_at, last_day, csv FROM histories WHERE source = ?", -1, &statement, nil)
          == SQLITE_OK
      else { return nil }
      defer { sqlite3_finalize(statement) }
      sqlite3_bind_text(statement, 1, source, -1, Self.transient)
      guard sqlite3_step(statement) == SQLITE_ROW, let dayText = sqlite3_column_text(statement, 1),
        let lastDay = CalendarDay(iso8601: String(cString: dayText)), let blob = sqlite3_column_blob(statement, 2)
      else { return nil }
      let count = Int(sqlite3_column_bytes(statement, 2))
      let bytes = Array(UnsafeBufferPointer(start: blob.assumingMemoryBound(to: UInt8.self), count: count))
      return (bytes, lastDay, Date(timeIntervalSince1970: sqlite3_column_double(statement, 0)))
    }
  }

  /// When a cached answer stops being valid: never for the day's own publication, nor for a fallback more
  /// than a week old (a weekend or holiday answer that cannot change); a recent fallback (possibly a mirror
  /// that is behind) is asked again after six hours; an answer for today that is not yet today's publication
  /// expires at the next 15:00 UTC (after the ECB's 16:00 CET publication, summer or winter).
  static func expiry(of quote: RateQuote, key: RateKey, today: CalendarDay, now: Date) -> Date? {
    if quote.rateDay == key.day || today.days(since: key.day) > 7 { return nil }
    if key.day < today { return now.addingTimeInterval(6 * 3_600) }
    let startOfDay = TimeInterval(today.daysSinceEpoch) * 86_400
    var expiry = startOfDay + 15 * 3_600
    if expiry <= now.timeIntervalSince1970 { expiry += 86_400 }
    return Date(timeIntervalSince1970: expiry)
  }
}
