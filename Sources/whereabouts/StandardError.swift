import Foundation

/// Writes to standard error, which may have gone away (a closed terminal, a closed pipe): a write
/// that fails is dropped, so a failing run still exits with its own status instead of trapping.
enum StandardError {
    /// Writes `text` as it is.
    static func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
