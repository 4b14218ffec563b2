import Foundation
import WhereaboutsCore

/// The answer to one bridge call.
public enum BridgeReply: Sendable, Equatable {
    /// The call succeeded; the JSON result (`null` for none).
    case success(Data)
    /// The call failed.
    case failure(BridgeError)

    /// The answer as one JSON object: `{"result": …}` or `{"error": {"code", "message"}}`.
    public var json: Data {
        switch self {
        case .success(let result): Data("{\"result\":".utf8) + result + Data("}".utf8)
        case .failure(let error): (try? BridgeJSON.encode(["error": error])) ?? Data("{\"error\":{\"code\":\"internal\"}}".utf8)
        }
    }
}
