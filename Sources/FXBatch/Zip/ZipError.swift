/// Why a zip package (an `.xlsx` or `.ods` workbook) cannot be read or written: one line that says what is wrong
/// with the file and, where there is one, what to do about it.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file cannot be opened or read (missing, a directory, no permission).
  case cannotOpen(path: String, reason: String)
  /// The file is not a zip file at all.
  case notAZip(path: String)
  /// A file that starts as a zip but has no end (no central directory): cut short in a copy or a download.
  case truncated(path: String)
  /// A Compound File Binary (OLE2) file that is not an encrypted package: a legacy Excel 97-2003 `.xls` workbook.
  case legacyWorkbook(path: String)
  /// A zip package with `xl/workbook.bin`: an Excel binary workbook (`.xlsb`).
  case binaryWorkbook(path: String)
  /// An encrypted package: a zip entry with encryption, an OOXML `EncryptedPackage` inside a Compound File, or an
  /// ODF manifest with `encryption-data`.
  case passwordProtected(path: String)
  /// libzip refused the file's structure (a truncated file, a broken central directory).
  case damaged(path: String, reason: String)
  /// The local header of an entry disagrees with its central directory record (its CRC-32, sizes, name, method),
  /// or entries overlap: readers that go by one or the other would read different packages.
  case inconsistent(path: String)
  /// Two entries with the same name: which one a reader takes would be a guess.
  case duplicateEntry(path: String, name: String)
  /// A named entry the package does not have.
  case noSuchEntry(path: String, name: String)
  /// An entry larger, inflated, than ``ZipLimits/entrySize`` allows.
  case entryTooLarge(path: String, entry: String, size: UInt64, limit: UInt64)
  /// An entry that inflates more than ``ZipLimits/compressionRatio`` times its compressed size: a zip bomb.
  case compressionRatioTooHigh(path: String, entry: String, size: UInt64, compressedSize: UInt64, limit: UInt64)
  /// An entry that inflates to more bytes than its header declares.
  case inflatesPastDeclaredSize(path: String, entry: String, declared: UInt64)
  /// An entry that inflates to fewer bytes than its header declares.
  case inflatesShortOfDeclaredSize(path: String, entry: String, declared: UInt64, inflated: UInt64)
  /// An XML part with a document type declaration (`<!DOCTYPE`) or an entity declaration (`<!ENTITY`).
  case documentTypeDeclaration(path: String, entry: String)
  /// An entry whose data cannot be read or inflated (a bad checksum, corrupt deflate data).
  case readFailed(path: String, entry: String, reason: String)
  /// The output package cannot be written.
  case writeFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      return "\(path): error: cannot open the file: \(reason)"
    case .notAZip(let path):
      return "\(path): error: not a workbook: an .xlsx or .ods file is a zip package, and this file is not one"
    case .truncated(let path):
      return "\(path): error: a zip package cut short (its central directory is missing): copy or download it again"
    case .legacyWorkbook(let path):
      return "\(path): error: a legacy .xls workbook (Excel 97-2003): save it as .xlsx"
    case .binaryWorkbook(let path):
      return "\(path): error: an .xlsb binary workbook: save it as .xlsx"
    case .passwordProtected(let path):
      return "\(path): error: a password-protected workbook: save a copy without the password"
    case .damaged(let path, let reason):
      return "\(path): error: a damaged zip package: \(reason)"
    case .inconsistent(let path):
      return
        "\(path): error: a damaged zip package: its central directory and its entries' local headers disagree (checksums, sizes, names or places)"
    case .duplicateEntry(let path, let name):
      return "\(path): error: the package has two entries named \(name)"
    case .noSuchEntry(let path, let name):
      return "\(path): error: the package has no entry \(name)"
    case .entryTooLarge(let path, let entry, let size, let limit):
      return "\(path): error: \(entry) inflates to \(size) bytes, more than the limit of \(limit)"
    case .compressionRatioTooHigh(let path, let entry, let size, let compressedSize, let limit):
      return
        "\(path): error: \(entry) inflates \(compressedSize) bytes to \(size), more than \(limit) times: a zip bomb"
    case .inflatesPastDeclaredSize(let path, let entry, let declared):
      return "\(path): error: \(entry) lies about its size: it declares \(declared) bytes and inflates to more"
    case .inflatesShortOfDeclaredSize(let path, let entry, let declared, let inflated):
      return "\(path): error: \(entry) lies about its size: it declares \(declared) bytes and inflates to \(inflated)"
    case .documentTypeDeclaration(let path, let entry):
      return "\(path): error: \(entry) has a DTD or an entity declaration, which workbooks never need: refused"
    case .readFailed(let path, let entry, let reason):
      return "\(path): error: cannot read \(entry): \(reason)"
    case .writeFailed(let path, let reason):
      return "\(path): error: cannot write the package: \(reason)"
    }
  }
}
