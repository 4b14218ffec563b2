import Foundation
import WhereaboutsCore

/// Everything the server holds of one device, as one JSON object written piece by piece (for
/// `device export`, when the person a device belongs to asks for their data): the device (or `null`
/// once removed), its regions, region events, OwnTracks messages, then every location, oldest first,
/// in the history export's JSON form.
public enum DeviceExport {
    /// Writes the export of `device` through `write`, a page of locations at a time; returns the
    /// number of locations written.
    @discardableResult
    public static func write(device: String, from storage: any DeviceStorage & TrackReading, to write: (String) throws -> Void) async throws
        -> Int
    {
        let head = Head(
            device: try await storage.devices().first { $0.id == device }, regions: try await storage.regions(device: device),
            events: try await storage.events(device: device, from: .distantPast, to: .distantFuture),
            messages: try await storage.messages(device: device))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        let text = String(decoding: try encoder.encode(head), as: UTF8.self)
        try write("{\"id\":\(JSONLine.quote(device)),\(text.dropFirst().dropLast()),\"locations\":[")
        var count = 0
        try await storage.history(device: device, from: .distantPast, to: .distantFuture, page: 1000) { records in
            var chunk = ""
            for record in records {
                chunk += TrackExport.json.item(record, first: count == 0)
                count += 1
            }
            try write(chunk)
        }
        try write("]}\n")
        return count
    }

    private struct Head: Encodable {
        let device: DeviceInfo?
        let regions: [WireRegion]
        let events: [ReceivedEvent]
        let messages: [DeviceMessage]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device, forKey: .device)
            try container.encode(regions, forKey: .regions)
            try container.encode(events, forKey: .events)
            try container.encode(messages, forKey: .messages)
        }

        private enum CodingKeys: String, CodingKey { case device, regions, events, messages }
    }
}
