extension FileError {
  /// A package's one-line reason (`PATH: error: reason`, as ``ZipError`` and ``WorkbookError`` write it) as a
  /// ``FileError`` of the file the user named.
  static func package(_ description: String, readPath: String, displayPath: String) -> FileError {
    let prefix = "\(readPath): error: "
    let message = description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
    return FileError(path: displayPath, message: message)
  }
}
