import Testing

extension Tag {
  /// A suite that exercises unsafe code (Sources/FXBatch/Bytes, the zip wrapper, the scanners, the fast paths,
  /// libcurl's callbacks, the parts runner). `.ci/run` runs the suites tagged so under the address sanitizer:
  /// `.ci/sanitized-suites` finds them by this tag on their `@Suite(…)` line (the toolchain's `swift test` cannot
  /// select by tag), so tagging a suite is all it takes.
  @Tag static var sanitized: Self
  /// A test of a sanitized suite that the address sanitizer run skips: slow under ASan and about rates or
  /// rounding, not bytes (on its `@Test(…)` line).
  @Tag static var notSanitized: Self
}
