import Foundation

/// The folder that holds everything this test process writes, removed when the process exits, so a
/// test run leaves nothing behind in the temporary directory. A run killed by a signal leaves it; its
/// name carries the process id.
private let scratchRoot: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "whereabouts-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return url
}()

/// A fresh folder for one test's files, named `prefix-UUID`, removed with the rest when the test process exits.
public func temporaryFolder(_ prefix: String = "test") -> URL {
    let url = temporaryFile(prefix)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh path for one file, named `prefix-UUID` then `suffix`; the file is not created.
public func temporaryFile(_ prefix: String, suffix: String = "") -> URL {
    scratchRoot.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
}
