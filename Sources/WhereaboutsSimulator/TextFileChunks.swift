import Foundation
import WhereaboutsCore

/// Reads a text file named on the command line in chunks, refusing what is not one before it is
/// parsed: a folder, a device (such as /dev/zero, which never ends) or a binary file (such as a
/// Whereabouts store), whose bytes would otherwise be quoted in the parser's error.
enum TextFileChunks {
    /// Bytes read per chunk.
    static let chunkSize = 64 * 1024

    /// Hands `body` each chunk of the file at `url`, in order; `what` says what the file should be
    /// ("a GPX file"), for the errors.
    /// - Throws: ``FormatError`` naming the file, the problem and the fix, or what `body` throws.
    static func read(_ url: URL, expecting what: String, _ body: (Data) throws -> Void) throws {
        let refuse = { (problem: String) in
            FormatError(source: url.path, location: "", problem: problem, fix: "give the path of \(what)")
        }
        switch (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType {
        case .typeDirectory?: throw refuse("is a folder, not \(what)")
        case .typeCharacterSpecial?, .typeBlockSpecial?: throw refuse("is a device, not \(what)")
        default: break
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw FormatError(
                source: url.path, location: "", problem: "cannot be opened for reading", fix: "check the path and that the file is readable"
            )
        }
        defer { try? handle.close() }
        var first = true
        while let chunk = try readChunk(handle, url: url), !chunk.isEmpty {
            if first, chunk.starts(with: Data("SQLite format 3\0".utf8)) {
                throw refuse("is a SQLite database (a Whereabouts store?), not \(what)")
            }
            if first, chunk.contains(0) { throw refuse("holds binary data (a NUL byte), not the text of \(what)") }
            first = false
            try body(chunk)
        }
    }

    private static func readChunk(_ handle: FileHandle, url: URL) throws -> Data? {
        do { return try handle.read(upToCount: chunkSize) } catch {
            throw FormatError(
                source: url.path, location: "", problem: "could not be read (\((error as NSError).localizedFailureReason ?? "\(error)"))",
                fix: "check the file is readable")
        }
    }
}
