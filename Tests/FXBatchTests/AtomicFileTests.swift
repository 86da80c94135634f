import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

#if canImport(Glibc)
  import Glibc
#endif

/// Outputs named by a descriptor of the process (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`, or a link to one)
/// are written through that descriptor: a break-it session found `-o /dev/stdout`, run as root with standard
/// output redirected to a file, renamed its temporary file over `/dev/stdout` itself.
@Suite("Atomic files: outputs named by a descriptor")
struct AtomicFileTests {
  /// A file opened for appending after its first line, and its descriptor.
  static func appendingFile(in directory: TemporaryDirectory) throws -> (path: String, descriptor: Int32) {
    let path = directory.path + "/redirected.txt"
    try directory.write(Array("head\n".utf8), named: "redirected.txt")
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    #expect(descriptor >= 0)
    return (path, descriptor)
  }

  @Test(arguments: ["/dev/fd/", "/proc/self/fd/", "link to /proc/self/fd/", "link to a link to /dev/fd/"])
  func aDescriptorsNameIsWrittenThroughIt(form: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (path, descriptor) = try Self.appendingFile(in: directory)
    defer { close(descriptor) }
    var output = form + "\(descriptor)"
    if form.hasPrefix("link to a link to ") {
      #expect(symlink("/dev/fd/\(descriptor)", directory.path + "/inner") == 0)
      #expect(symlink("inner", directory.path + "/outer") == 0)  // relative, from the link's directory
      output = directory.path + "/outer"
    } else if form.hasPrefix("link to ") {
      #expect(symlink(String(form.dropFirst("link to ".count)) + "\(descriptor)", directory.path + "/stdout") == 0)
      output = directory.path + "/stdout"
    }
    #expect(AtomicFile.openDescriptor(named: output) == descriptor)
    let file = try AtomicFile(path: output)
    try file.sink.write("body\n")
    try file.commit()
    // Written through the descriptor, in its append mode; the links stay links, and nothing else is left.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "head\nbody\n")
    var info = stat()
    if form.hasPrefix("link") {
      #expect(lstat(output, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(names.allSatisfy { ["redirected.txt", "stdout", "inner", "outer"].contains($0) }, "\(names)")
  }

  @Test func otherNamesAreNoDescriptors() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (path, descriptor) = try Self.appendingFile(in: directory)
    close(descriptor)
    #expect(AtomicFile.openDescriptor(named: path) == nil)
    // Not open: the soft descriptor limit is past every open descriptor (a closed descriptor's number may be
    // reused at once by a test running in parallel).
    var limit = rlimit()
    let limitRead = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    #expect(limitRead == 0)
    let unused: UInt64 = min(UInt64(limit.rlim_cur), UInt64(Int32.max))
    #expect(AtomicFile.openDescriptor(named: "/dev/fd/\(unused)") == nil)
    #expect(AtomicFile.openDescriptor(named: "/dev/fd/1x") == nil)
    #expect(symlink(path, directory.path + "/link") == 0)
    #expect(AtomicFile.openDescriptor(named: directory.path + "/link") == nil)
    #expect(symlink("loop", directory.path + "/loop") == 0)
    #expect(AtomicFile.openDescriptor(named: directory.path + "/loop") == nil)
    // A link to a file is replaced by the new file, as before.
    let file = try AtomicFile(path: directory.path + "/link")
    try file.sink.write("new\n")
    try file.commit()
    #expect(try String(contentsOfFile: directory.path + "/link", encoding: .utf8) == "new\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "head\n")
  }
}
