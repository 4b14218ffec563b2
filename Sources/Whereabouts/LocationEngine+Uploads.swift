import Foundation
import WhereaboutsCore
import WhereaboutsDelivery

extension LocationEngine {
    /// Where uploads go and the credential they present, as the app last set them (kept across
    /// relaunches).
    public var uploadAccount: UploadAccount { session.uploads }

    /// Says where uploads go (`nil` forgets it): stored, then used from the next upload on by an
    /// uploader that reads the app's settings (``Bridge/uploader(store:transport:clock:)``).
    /// - Throws: `Refusal/Code/storeFailure` when the store cannot keep it; nothing changes then.
    public func configureUploads(_ settings: UploadSettings?) throws(EngineError) {
        try request(.configureUploads(settings), doing: "store the upload settings")
        uploader?.account?.update { $0.settings = settings }
    }

    /// Sets the most often uploads started by new records, region events and motion changes go
    /// (``TrackerConfiguration/minimumFlushInterval``), now and for later launches; `nil` takes the
    /// mode's (``TrackingMode/uploadInterval``: half an hour, an hour for `efficient`). Stopping, an
    /// arrival and the foreground still upload at once.
    /// - Throws: `Refusal/Code/invalidArgument` for seconds outside 0 ... 86 400 (or not a number),
    ///   `Refusal/Code/storeFailure` when the store cannot keep it; nothing changes then.
    public func setUploadInterval(_ seconds: TimeInterval?) throws(EngineError) {
        try launch(.user)
        try request(.setUploadInterval(seconds), doing: "store the upload interval")
    }

    /// Gives the upload credential (`nil` signs out): stored, then presented from the next upload on.
    /// - Throws: `Refusal/Code/storeFailure` when the store cannot keep it; nothing changes then.
    public func setAuthTokens(_ tokens: AuthTokens?) throws(EngineError) {
        try request(.setAuthTokens(tokens), doing: tokens == nil ? "forget the credential" : "store the credential")
        uploader?.account?.update { $0.tokens = tokens }
    }
}
