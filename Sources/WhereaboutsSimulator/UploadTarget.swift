import Foundation

/// Where a simulated run's uploads go.
public enum UploadTarget: Sendable {
    /// A receiver inside the process that acknowledges everything (``LoopbackReceiver``).
    case loopback
    /// A real server: the batch API at `base` for `device`, with a bearer `token` if any, in batches of
    /// at most `batchSize` records, waiting `requestTimeout` seconds for each answer.
    case server(base: URL, device: String, token: String?, batchSize: Int, requestTimeout: TimeInterval)
}
