import Foundation
import WhereaboutsCore

/// The JSON-in / JSON-out face of a ``LocationEngine`` for React Native and Capacitor: a method name
/// and its arguments give a result or a ``BridgeError`` (`{code, message}`), and engine changes are
/// pushed as named events (``events()``). The platform glue (a `CAPPlugin`, a React Native module)
/// only converts between its dictionaries and JSON; every rule stays here and in the engine.
///
/// Malformed arguments never crash: they get `invalidArguments` with a message naming the method,
/// the field and the shape to send. Uploads configured from JavaScript need the engine's uploader to
/// come from ``uploader(store:transport:clock:)``.
public final class Bridge: Sendable {
    /// The engine the calls go to.
    public let engine: LocationEngine
    /// What posts region notifications (the iOS adapter's `RegionNotifier`), or `nil` where nothing does.
    public let notifications: (any RegionNotificationControl)?
    /// The order the glue's calls run in.
    let order = BridgeCallOrder()

    /// Creates a bridge over `engine`, with `notifications` driven by `configureNotifications`.
    public init(engine: LocationEngine, notifications: (any RegionNotificationControl)? = nil) {
        self.engine = engine
        self.notifications = notifications
    }

    /// Calls `method` with its arguments as a JSON object (`nil` or empty data for none).
    public func call(_ method: String, arguments: Data?) async -> BridgeReply {
        guard let known = BridgeMethod(rawValue: method) else { return .failure(.unknownMethod(method)) }
        let body = arguments.flatMap { $0.isEmpty ? nil : $0 } ?? Data("{}".utf8)
        do {
            guard (try? JSONSerialization.jsonObject(with: body)) is [String: Any] else {
                throw BridgeError.invalidArguments(known, "the arguments are not a JSON object")
            }
            return .success(try await dispatch(known, body))
        } catch let error as BridgeError {
            return .failure(error)
        } catch let error as EngineError {
            return .failure(BridgeError(error, method: known))
        } catch let error as ArgumentProblem {
            return .failure(.invalidArguments(known, error.description))
        } catch let error as ValidationError {
            return .failure(.invalidArguments(known, error.description))
        } catch let error as EncodingError {
            return .failure(.internalError(known, error))
        } catch {
            return .failure(.invalidArguments(known, DecodeProblem(error).reason))
        }
    }

    /// Calls `method` with arguments as JSON text and answers JSON text (``BridgeReply/json``).
    public func call(_ method: String, json: String?) async -> String {
        String(decoding: await call(method, arguments: json.map { Data($0.utf8) }).json, as: UTF8.self)
    }
}
