/// The parts of a path, read from its text alone (no file system access), for any text.
///
/// Foundation's `NSString` path methods trap on some paths (`deletingLastPathComponent` of `.` or `./`, fxbatch
/// issue 13); these never do, whatever a user types.
public enum PathText {
  /// The directory a path's last component is in: the text before its last `/`, trailing slashes aside.
  ///
  /// `a/b.csv` → `a`, `a/b/` → `a`, `/b` → `/`, `/` → `/`, `b.csv` → `` (the current directory), `.` → ``.
  public static func directory(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(Substring(path))
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let directory = withoutTrailingSlashes(trimmed[..<slash])
    return directory.isEmpty ? "/" : String(directory)
  }

  /// The last component of a path, trailing slashes aside: `a/b.csv` → `b.csv`, `a/b/` → `b`, `/` → ``.
  public static func lastComponent(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(Substring(path))
    guard trimmed != "/" else { return "" }
    guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `name` in `directory`: `a` and `b` → `a/b`, `a/` and `b` → `a/b`, `` and `b` → `b`.
  public static func appending(_ name: String, to directory: String) -> String {
    guard !directory.isEmpty else { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// A file name's stem and extension: `a.csv` → (`a`, `csv`), `a.tar.gz` → (`a.tar`, `gz`), `a` → (`a`, ``);
  /// a dot that starts or ends the name separates nothing (`.profile`, `a.`).
  public static func splitExtension(_ name: String) -> (stem: String, extension: String) {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
      return (name, "")
    }
    return (String(name[..<dot]), String(name[name.index(after: dot)...]))
  }

  /// Whether a path names a directory by its text, whatever is on disk: it is empty, ends with `/`, or its last
  /// component is `.` or `..`. Such a path can never be written as a file.
  public static func namesDirectory(_ path: String) -> Bool {
    path.isEmpty || path.hasSuffix("/") || path == "." || path == ".." || path.hasSuffix("/.") || path.hasSuffix("/..")
  }

  private static func withoutTrailingSlashes(_ text: Substring) -> Substring {
    var text = text
    while text.count > 1, text.last == "/" { text = text.dropLast() }
    return text
  }
}
