#if canImport(Glibc)
import Glibc
#endif

/// Gives the pages of freed memory back to the system (glibc's `malloc_trim`, found at run time: `malloc.h` is
/// not part of Swift's Glibc module). Threads that each read a multi-megabyte answer leave their freed buffers in
/// their own malloc arenas, counted in the process's resident memory until they are reused or trimmed: eight
/// fetch threads kept about 35 MB so for the world's currencies over Frankfurter v2.
enum FreedMemory {
  #if canImport(Glibc)
  private typealias Trim = @convention(c) (Int) -> Int32
  /// `malloc_trim`, or `nil` where the C library has none.
  private static let trim: Trim? = {
    guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: Trim.self)
  }()
  #endif

  /// Returns the free pages of every malloc arena to the system (nothing where the C library cannot).
  static func release() {
    #if canImport(Glibc)
    _ = trim?(0)
    #endif
  }
}
