import Foundation

/// The request body of the batch API: `{"locations": [...], "acknowledged": [...]}`.
public struct LocationBatch: Sendable, Hashable, Codable {
    /// The locations, oldest first unless the device asked for latest first; empty when the request
    /// only acknowledges commands.
    public var locations: [WireLocation]
    /// The ids of the server's commands the device has carried out: the server stops sending them.
    /// Left out when empty.
    public var acknowledged: [String]

    /// Creates a batch.
    public init(locations: [WireLocation], acknowledged: [String] = []) {
        self.locations = locations
        self.acknowledged = acknowledged
    }

    private enum CodingKeys: String, CodingKey { case locations, acknowledged }

    /// Decodes a batch; `acknowledged` may be missing.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        locations = try c.decode([WireLocation].self, forKey: .locations)
        acknowledged = try c.decodeIfPresent([String].self, forKey: .acknowledged) ?? []
    }

    /// Encodes the batch, leaving out an empty `acknowledged`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(locations, forKey: .locations)
        if !acknowledged.isEmpty { try c.encode(acknowledged, forKey: .acknowledged) }
    }
}
