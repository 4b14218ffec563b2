import Foundation
import WhereaboutsCore

/// Decodes a batch item by item, so one item of the wrong shape is rejected alone.
struct Lenient<Item: Decodable>: Decodable {
    let result: Result<Item, DecodeProblem>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Item(from: decoder))
        } catch {
            result = .failure(DecodeProblem(error))
        }
    }
}

/// A decoding error in words.
struct DecodeProblem: Error {
    let reason: String

    init(_ error: any Error) {
        switch error {
        case DecodingError.keyNotFound(let key, _): reason = "\(key.stringValue) is missing"
        case DecodingError.typeMismatch(let type, let context):
            reason = "\(context.codingPath.last?.stringValue ?? "a field") is not \(type == Double.self ? "a number" : type == String.self ? "a string" : "\(type)")"
        case DecodingError.valueNotFound(_, let context): reason = "\(context.codingPath.last?.stringValue ?? "a field") is null"
        default: reason = "is not an object of the documented shape"
        }
    }
}

/// `{"locations": [...]}` read leniently.
struct LenientLocationBatch: Decodable {
    let locations: [Lenient<WireLocation>]
}

/// `{"events": [...]}` read leniently.
struct LenientEventBatch: Decodable {
    let events: [Lenient<WireEvent>]
}
