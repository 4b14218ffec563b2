import Foundation
import WhereaboutsCore

/// Decodes a batch item by item, so one item of the wrong shape is rejected alone.
struct Lenient<Item: Decodable>: Decodable {
    let result: Result<Item, DecodeProblem>

    init(result: Result<Item, DecodeProblem>) {
        self.result = result
    }

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Item(from: decoder))
        } catch {
            result = .failure(DecodeProblem(error))
        }
    }
}

/// `{"locations": [...], "acknowledged": [command ids]}` read leniently.
struct LenientLocationBatch: Decodable {
    let locations: [Lenient<WireLocation>]
    /// The ids of the commands the device has carried out; missing when none.
    let acknowledged: [String]?
}

/// `{"events": [...]}` read leniently.
struct LenientEventBatch: Decodable {
    let events: [Lenient<WireEvent>]
}
