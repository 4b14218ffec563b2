import Foundation

/// An instruction a server sends back to a device in an upload response.
public enum ServerCommand: Sendable, Hashable, Codable {
    /// Take a fix now and report it.
    case reportLocation
    /// Track at full accuracy for the given minutes, then return to the configured mode.
    case startActiveTracking(minutes: Int)
    /// Replace the monitored regions with these.
    case setRegions([WireRegion])

    private enum CodingKeys: String, CodingKey { case type, minutes, regions }

    /// Decodes `{"type": "reportLocation" | "startActiveTracking" | "setRegions", ...}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "reportLocation": self = .reportLocation
        case "startActiveTracking":
            let minutes = try c.decode(Int.self, forKey: .minutes)
            guard (1...1440).contains(minutes) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .minutes, in: c,
                    debugDescription: "minutes \(minutes) is not in 1...1440; send a whole number of minutes up to a day")
            }
            self = .startActiveTracking(minutes: minutes)
        case "setRegions": self = .setRegions(try c.decode([WireRegion].self, forKey: .regions))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c,
                debugDescription: "command type \"\(type)\" is unknown; use reportLocation, startActiveTracking or setRegions")
        }
    }

    /// Encodes the `type`-tagged form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .reportLocation: try c.encode("reportLocation", forKey: .type)
        case .startActiveTracking(let minutes):
            try c.encode("startActiveTracking", forKey: .type)
            try c.encode(minutes, forKey: .minutes)
        case .setRegions(let regions):
            try c.encode("setRegions", forKey: .type)
            try c.encode(regions, forKey: .regions)
        }
    }
}
