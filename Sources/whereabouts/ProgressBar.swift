import Foundation

/// A one-line progress bar on standard error, so standard output stays a clean report.
final class ProgressBar {
    private let total: Int
    private var done = 0

    init(total: Int) { self.total = max(total, 1) }

    /// Moves one step on and shows what is being worked on.
    func advance(label: String) {
        done += 1
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        StandardError.write("\r[\(bar)] \(done)/\(total) \(label)\u{1B}[K")
    }

    /// Ends the bar's line.
    func finish() { StandardError.write("\n") }
}
