import Testing

@testable import FXBatch

/// ``PathText`` reads any text as a path without trapping (Foundation's `NSString.deletingLastPathComponent`
/// trapped on `.` and `./`, fxbatch issue 13), and ``StaleTemporaryFiles`` knows fxbatch's temporary names.
@Suite("PathText and temporary names")
struct PathTextTests {
  @Test(
    arguments: [
      ("a/b.csv", "a", "b.csv"), ("a/b/", "a", "b"), ("/b", "/", "b"), ("/", "/", ""), ("//", "/", ""),
      ("b.csv", "", "b.csv"), (".", "", "."), ("./", "", "."), ("..", "", ".."), ("", "", ""), ("a//b", "a", "b"),
      ("./x.csv", ".", "x.csv"), ("/tmp/", "/", "tmp"), ("a/b/.", "a/b", "."), ("sub/..", "sub", ".."),
    ] as [(String, String, String)])
  func directoryAndLastComponent(path: String, directory: String, last: String) {
    #expect(PathText.directory(of: path) == directory)
    #expect(PathText.lastComponent(of: path) == last)
  }

  @Test func appendingAndExtensions() {
    #expect(PathText.appending("b", to: "a") == "a/b")
    #expect(PathText.appending("b", to: "a/") == "a/b")
    #expect(PathText.appending("b", to: "") == "b")
    #expect(PathText.appending("b", to: "/") == "/b")
    #expect(PathText.splitExtension("a.csv") == ("a", "csv"))
    #expect(PathText.splitExtension("a.tar.gz") == ("a.tar", "gz"))
    #expect(PathText.splitExtension("a") == ("a", ""))
    #expect(PathText.splitExtension(".profile") == (".profile", ""))
    #expect(PathText.splitExtension("a.") == ("a.", ""))
    #expect(PathText.splitExtension(".") == (".", ""))
  }

  @Test(arguments: ["", ".", "..", "./", "a/", "/", "a/.", "a/..", "//"])
  func textThatNamesADirectory(path: String) {
    #expect(PathText.namesDirectory(path))
  }

  @Test(arguments: ["a", "a.csv", "./a", "/a", "a/.b", "..a", "a.."])
  func textThatMayNameAFile(path: String) {
    #expect(!PathText.namesDirectory(path))
  }

  @Test func temporaryNamesAndTheirProcess() {
    let atomic = StaleTemporaryFiles.atomicName(of: "out.csv", pid: 4242, attempt: 3)
    #expect(atomic == ".out.csv.fxbatch-4242-3.tmp")
    #expect(StaleTemporaryFiles.owner(ofName: atomic) == 4242)
    #expect(StaleTemporaryFiles.owner(ofName: ".a.fxbatch-7.fxbatch-4242-1.tmp") == 4242)
    // A long name (here of two-byte characters) is cut short by whole characters to fit 255 bytes, still known.
    for length in [200, 236, 237, 250, 255] {
      let long = StaleTemporaryFiles.atomicName(
        of: String(repeating: "é", count: length / 2) + ".csv", pid: 4_194_304, attempt: 12)
      #expect(long.utf8.count <= 255 && long.hasSuffix(".fxbatch-4194304-12.tmp") && long.hasPrefix(".éé"))
      #expect(String(decoding: Array(long.utf8), as: UTF8.self) == long)
      #expect(StaleTemporaryFiles.owner(ofName: long) == 4_194_304)
    }
    #expect(StaleTemporaryFiles.owner(ofName: StaleTemporaryFiles.spoolName(pid: 4242, number: 0)) == 4242)
    #expect(StaleTemporaryFiles.owner(ofName: "fxbatch-stdin-4242.csv") == 4242)
    for name in [
      "out.csv", ".out.csv.fxbatch-4242.tmp", ".out.csv.fxbatch-4242-1.tmp~", "out.csv.fxbatch-4242-1.tmp",
      ".fxbatch-4242-1.tmp", ".out.csv.fxbatch--1.tmp", ".out.csv.fxbatch-42a-1.tmp", ".out.csv.fxbatch-4242-.tmp",
      ".out.csv.fxbatch-0-1.tmp", ".out.csv.fxbatch-1-1.tmp", ".out.csv.fxbatch-99999999999999999999-1.tmp",
      "fxbatch-spool-4242", "fxbatch-spool-4242-1-2", "fxbatch-spool--1", "fxbatch-stdin-.csv", "fxbatch-stdin-4242.json",
      "fxbatch-part-4242-abcdef",
    ] {
      #expect(StaleTemporaryFiles.owner(ofName: name) == nil, "\(name)")
    }
  }
}
